import { useRef } from 'react'
import { Dropdown } from 'react-bootstrap'
import { Link } from 'react-router'
import { Icon } from '../icon'
import type { RowAction } from './types'

interface RowActionsMenuProps {
  label: string
  actions: RowAction[]
}

/** The actions menu at the end of a row (docs/architecture.md, look and feel), also used at the top of each card. */
export function RowActionsMenu({ label, actions }: RowActionsMenuProps) {
  const toggleRef = useRef<HTMLButtonElement>(null)
  if (actions.length === 0) return null
  return (
    <Dropdown align="end">
      <Dropdown.Toggle ref={toggleRef} variant="light" size="sm" className="vb-row-actions" aria-label={`Acciones de ${label}`}>
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
