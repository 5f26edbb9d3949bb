import { useLayoutEffect, useRef, useState } from 'react'
import { Dropdown } from 'react-bootstrap'
import { Link } from 'react-router'
import { Icon } from '../icon'
import type { RowAction } from './types'

interface RowActionsMenuProps {
  label: string
  actions: RowAction[]
}

const TOGGLE_CLASS = 'vb-row-actions'

/**
 * The actions menu at the end of a row (docs/architecture.md, look and feel), also used at the top of each card.
 * Until it is first opened it is a plain button that looks the same: react-bootstrap's Dropdown sets state from its
 * toggle's ref while the page commits, which made React render every row's menu again and run all of the page's
 * effects in the same task (docs/architecture.md, a start in short tasks). Opened once, it is the Dropdown, open, with
 * the focus where the user left it.
 */
export function RowActionsMenu({ label, actions }: RowActionsMenuProps) {
  // null: never opened yet, the plain button.
  const [show, setShow] = useState<boolean | null>(null)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  useLayoutEffect(() => {
    if (show === null || !refocus.current) return
    refocus.current = false
    toggleRef.current?.focus()
  }, [show])
  if (actions.length === 0) return null
  const ariaLabel = `Acciones de ${label}`
  if (show === null) {
    const open = (button: HTMLButtonElement) => {
      refocus.current = button.ownerDocument.activeElement === button
      setShow(true)
    }
    return (
      <div className="dropdown">
        <button
          type="button"
          className={`dropdown-toggle btn btn-light btn-sm ${TOGGLE_CLASS}`}
          aria-label={ariaLabel}
          aria-expanded={false}
          onClick={(event) => open(event.currentTarget)}
          onKeyDown={(event) => {
            // As the Dropdown's toggle does: the down arrow opens the menu.
            if (event.key !== 'ArrowDown') return
            event.preventDefault()
            open(event.currentTarget)
          }}
        >
          <Icon name="three-dots-vertical" />
        </button>
      </div>
    )
  }
  return (
    <Dropdown align="end" show={show} onToggle={(next) => setShow(next)}>
      <Dropdown.Toggle ref={toggleRef} variant="light" size="sm" className={TOGGLE_CLASS} aria-label={ariaLabel}>
        <Icon name="three-dots-vertical" />
      </Dropdown.Toggle>
      <Dropdown.Menu>
        {actions.map((action) => {
          const content = (
            <>
              {action.icon && <Icon name={action.icon} className="me-2" />}
              {action.label}
            </>
          )
          const className = action.danger ? 'text-danger' : undefined
          if (action.disabled) {
            return (
              <Dropdown.Item key={action.label} as="button" type="button" disabled className={className}>
                {content}
              </Dropdown.Item>
            )
          }
          if (action.href) {
            return (
              <Dropdown.Item
                key={action.label}
                href={action.href}
                target="_blank"
                rel="noopener noreferrer"
                className={className}
              >
                {content}
              </Dropdown.Item>
            )
          }
          return action.to ? (
            <Dropdown.Item key={action.label} as={Link} to={action.to} className={className}>
              {content}
            </Dropdown.Item>
          ) : (
            <Dropdown.Item
              key={action.label}
              as="button"
              type="button"
              className={className}
              onClick={() => {
                // A dialog opened from the menu gives focus back to the toggle when it closes (docs/architecture.md, look and feel).
                toggleRef.current?.focus()
                action.onSelect?.()
              }}
            >
              {content}
            </Dropdown.Item>
          )
        })}
      </Dropdown.Menu>
    </Dropdown>
  )
}
