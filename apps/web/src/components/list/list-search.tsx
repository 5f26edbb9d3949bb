import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Button, Form, InputGroup } from 'react-bootstrap'
import { Icon } from '../icon'

/** Typing waits this long before searching (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300

interface ListSearchProps {
  label: string
  placeholder?: string
  /** The search the list is showing (from the URL). */
  value: string
  /** Enter or Limpiar: search now, from page 1. */
  onSearch: (q: string) => void
  /** A pause in typing: search, leaving the page as the user has it. */
  onSearchDebounced: (q: string) => void
  /** A keystroke that changes the search: back to page 1 at once. */
  onTyping: () => void
  /** Limpiar, when the list has filters too: clears them with the search (default: clears the search). */
  onClear?: () => void
}

/** SPEC §2.3: a search box with a visible label and a 'Limpiar' button. */
export function ListSearch({ label, placeholder, value, onSearch, onSearchDebounced, onTyping, onClear }: ListSearchProps) {
  const id = useId()
  const [text, setText] = useState(value)
  const typed = useRef(false)

  // Back, a reload or Limpiar elsewhere changed the URL: show its search (keeping a trailing space being typed).
  useEffect(() => {
    setText((current) => (current.trim() === value ? current : value))
  }, [value])

  useEffect(() => {
    const wanted = text.trim()
    if (!typed.current || wanted === value) return
    const timer = window.setTimeout(() => onSearchDebounced(wanted), SEARCH_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [text, value, onSearchDebounced])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSearch(text.trim())
  }
  const clear = () => {
    typed.current = false
    setText('')
    if (onClear) onClear()
    else onSearch('')
  }

  return (
    <Form role="search" onSubmit={submit} className="vb-list-search">
      <Form.Label htmlFor={id} className="fw-semibold mb-1">
        {label}
      </Form.Label>
      <InputGroup>
        <InputGroup.Text aria-hidden="true">
          <Icon name="search" />
        </InputGroup.Text>
        <Form.Control
          id={id}
          type="search"
          value={text}
          placeholder={placeholder}
          autoComplete="off"
          onChange={(e) => {
            typed.current = true
            if (e.target.value.trim() !== text.trim()) onTyping()
            setText(e.target.value)
          }}
        />
        <Button variant="outline-secondary" type="button" onClick={clear}>
          Limpiar
        </Button>
      </InputGroup>
    </Form>
  )
}
