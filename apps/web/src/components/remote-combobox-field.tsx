import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query'
import { useCombobox } from 'downshift'
import { useEffect, useId, useState } from 'react'
import { Form } from 'react-bootstrap'
import { type FieldValues, type Path, type UseFormReturn, useController } from 'react-hook-form'
import type { SelectOption } from './form-fields'
import { useSettled } from './use-settled'

/** Options shown per search: the server pages, the picker never downloads a whole table (DECISIONS A4, D13). */
export const COMBOBOX_PAGE = 20
/** Typing waits this long before searching. */
export const COMBOBOX_DEBOUNCE_MS = 250

interface RemoteComboboxFieldProps<T extends FieldValues, C, O> {
  form: UseFormReturn<T, C, O>
  name: Path<T>
  label: string
  placeholder?: string
  help?: string
  /** Root of the options' query keys (the search text is appended). */
  queryKey: QueryKey
  /** Asks the server for up to COMBOBOX_PAGE options matching `q` (accent- and case-insensitive there). */
  search: (q: string) => Promise<SelectOption[]>
  /** The option the form starts with (its label is not in any page loaded yet). */
  current?: SelectOption | null
}

/**
 * A searchable remote select (DECISIONS D13): typing searches the server, one page of options at a time,
 * so a picker over 2,000 homes finds every one of them. An accessible combobox (downshift: ARIA 1.2
 * pattern, arrow keys, Enter, Escape); the form keeps the chosen id (a number, as the shared schema wants).
 */
export function RemoteComboboxField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  placeholder,
  help,
  queryKey,
  search,
  current,
}: RemoteComboboxFieldProps<T, C, O>) {
  const { field, fieldState } = useController({ name, control: form.control })
  const [selected, setSelected] = useState<SelectOption | null>(current ?? null)
  const [text, setText] = useState(current?.label ?? '')
  const helpId = useId()
  const errorId = useId()

  // The form was reset (the modal opened on another record): show that record's option.
  const currentValue = current?.value
  const currentLabel = current?.label
  useEffect(() => {
    setSelected(currentValue === undefined ? null : { value: currentValue, label: currentLabel ?? '' })
    setText(currentLabel ?? '')
  }, [currentValue, currentLabel])

  // The search is what was typed once typing pauses; an option's own label, once chosen, searches everything.
  const settled = useSettled(text, COMBOBOX_DEBOUNCE_MS)
  const q = selected && settled === selected.label ? '' : settled.trim()

  const options = useQuery({
    queryKey: [...queryKey, { q }],
    queryFn: () => search(q),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })
  const items = options.data ?? []

  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, openMenu } = useCombobox({
    items,
    inputValue: text,
    selectedItem: selected,
    itemToString: (o) => o?.label ?? '',
    onInputValueChange: ({ inputValue, type }) => {
      setText(inputValue ?? '')
      if (type === useCombobox.stateChangeTypes.InputChange) {
        if (!inputValue) {
          setSelected(null)
          field.onChange(undefined)
        }
        if (fieldState.error) form.clearErrors(name)
      }
    },
    onSelectedItemChange: ({ selectedItem }) => {
      setSelected(selectedItem ?? null)
      field.onChange(selectedItem ? Number(selectedItem.value) : undefined)
      if (fieldState.error) form.clearErrors(name)
    },
  })

  const message = fieldState.error?.message
  const status = options.isPending ? 'Cargando...' : options.isError ? 'No se pudieron cargar las opciones.' : null
  return (
    <Form.Group className="position-relative">
      <Form.Label {...getLabelProps()}>{label}</Form.Label>
      <Form.Control
        {...getInputProps({
          onFocus: () => {
            if (!isOpen) openMenu()
          },
          onBlur: field.onBlur,
          ref: field.ref,
        })}
        placeholder={placeholder}
        autoComplete="off"
        isInvalid={Boolean(message)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : help ? helpId : undefined}
      />
      <ul
        {...getMenuProps()}
        className={`dropdown-menu w-100 shadow-sm vb-combobox-menu${isOpen ? ' show' : ''}`}
        style={{ maxHeight: '16rem', overflowY: 'auto' }}
      >
        {isOpen && status && <li className="dropdown-item-text text-body-secondary">{status}</li>}
        {isOpen && !status && items.length === 0 && <li className="dropdown-item-text text-body-secondary">Sin resultados</li>}
        {isOpen &&
          items.map((item, index) => (
            <li
              key={item.value}
              className={`dropdown-item text-wrap${highlightedIndex === index ? ' active' : ''}`}
              {...getItemProps({ item, index })}
            >
              {item.label}
              {item.group && <span className="d-block small opacity-75">{item.group}</span>}
            </li>
          ))}
      </ul>
      <Form.Control.Feedback type="invalid" id={errorId}>
        {message}
      </Form.Control.Feedback>
      {help && !message && (
        <Form.Text id={helpId} className="d-block">
          {help}
        </Form.Text>
      )}
    </Form.Group>
  )
}
