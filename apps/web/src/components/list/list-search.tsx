import { type FormEvent, useEffect, useId, useState } from 'react'
import { Button, Form, InputGroup } from 'react-bootstrap'

/** Typing waits this long before searching (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300

interface ListSearchProps {
  label: string
  placeholder?: string
  /** The search the list is showing. */
  value: string
  onSearch: (q: string) => void
}

/** SPEC §2.3: a search box with a visible label and a 'Limpiar' button. */
export function ListSearch({ label, placeholder, value, onSearch }: ListSearchProps) {
  const id = useId()
  const [text, setText] = useState(value)

  useEffect(() => {
    const wanted = text.trim()
    if (wanted === value) return
    const timer = window.setTimeout(() => onSearch(wanted), SEARCH_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [text, value, onSearch])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSearch(text.trim())
  }
  const clear = () => {
    setText('')
    onSearch('')
  }

  return (
    <Form role="search" onSubmit={submit} className="vb-list-search">
      <Form.Label htmlFor={id} className="fw-semibold mb-1">
        {label}
      </Form.Label>
      <InputGroup>
        <InputGroup.Text aria-hidden="true">
          <i className="bi bi-search" />
        </InputGroup.Text>
        <Form.Control
          id={id}
          type="search"
          value={text}
          placeholder={placeholder}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
        />
        <Button variant="outline-secondary" type="button" onClick={clear}>
          Limpiar
        </Button>
      </InputGroup>
    </Form>
  )
}
