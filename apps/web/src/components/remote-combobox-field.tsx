import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query'
import { useCombobox } from 'downshift'
import { type Ref, useEffect, useId, useState } from 'react'
import { Form } from 'react-bootstrap'
import { type FieldValues, type Path, type UseFormReturn, useController } from 'react-hook-form'
import type { SelectOption } from './form-fields'
import { useSettled } from './use-settled'

/** Options shown per search: the server pages, the picker never downloads a whole table (DECISIONS A4, D13). */
export const COMBOBOX_PAGE = 20
/** Typing waits this long before searching. */
export const COMBOBOX_DEBOUNCE_MS = 250

export interface RemoteComboboxProps {
  label: string
  placeholder?: string
  help?: string
  /** The field's error message (shown below it, and as its description). */
  error?: string
  /** Root of the options' query keys (the search text is appended). */
  queryKey: QueryKey
  /** Asks the server for up to COMBOBOX_PAGE options matching `q` (accent- and case-insensitive there). */
  search: (q: string) => Promise<SelectOption[]>
  /** The chosen option (its label is shown in the box), or none. */
  value: SelectOption | null
  /** An option was chosen, or the box was emptied (null). */
  onChange: (option: SelectOption | null) => void
  /** Something was typed (a form clears the field's error). */
  onType?: () => void
  onBlur?: () => void
  inputRef?: Ref<HTMLInputElement>
  /** Extra classes of the group (a list's filter sets its width). */
  className?: string
  /** Classes of the label (a list's filter shows it in bold). */
  labelClassName?: string
  /** What the list says when the search fails (default 'No se pudieron cargar las opciones.'). */
  errorText?: string
}

/**
 * A searchable remote select (DECISIONS D13): typing searches the server, one page of options at a time,
 * so a picker over 2,000 homes finds every one of them. An accessible combobox (downshift: ARIA 1.2
 * pattern, arrow keys, Enter, Escape). The chosen option is the caller's: a form field keeps its id, a list's
 * filter keeps it in the URL.
 */
export function RemoteCombobox({
  label,
  placeholder,
  help,
  error,
  queryKey,
  search,
  value,
  onChange,
  onType,
  onBlur,
  inputRef,
  className,
  labelClassName,
  errorText = 'No se pudieron cargar las opciones.',
}: RemoteComboboxProps) {
  const [text, setText] = useState(value?.label ?? '')
  const helpId = useId()
  const errorId = useId()

  // Another option was chosen from outside (a form reset on another record, a label that arrived): show it.
  const chosenValue = value?.value
  const chosenLabel = value?.label
  useEffect(() => {
    setText(chosenValue === undefined ? '' : (chosenLabel ?? ''))
  }, [chosenValue, chosenLabel])

  // The search is what was typed once typing pauses; an option's own label, once chosen, searches everything.
  const settled = useSettled(text, COMBOBOX_DEBOUNCE_MS)
  const q = value && settled === value.label ? '' : settled.trim()

  // The options are asked for when the list first opens, not when the box appears: a screen with a filter or a form
  // with a picker starts with one call less, and a page load with no answer (and no render) more to wait for.
  const [wanted, setWanted] = useState(false)
  const options = useQuery({
    queryKey: [...queryKey, { q }],
    queryFn: () => search(q),
    enabled: wanted,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })
  const items = options.data ?? []

  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, openMenu } = useCombobox({
    items,
    inputValue: text,
    selectedItem: value,
    itemToString: (o) => o?.label ?? '',
    onInputValueChange: ({ inputValue, type }) => {
      setText(inputValue ?? '')
      if (type === useCombobox.stateChangeTypes.InputChange) {
        if (!inputValue && value) onChange(null)
        onType?.()
      }
    },
    onSelectedItemChange: ({ selectedItem }) => onChange(selectedItem ?? null),
    onIsOpenChange: ({ isOpen: open }) => {
      if (open) setWanted(true)
    },
    // The box opens its list when it gets focus (a click, Tab); the click that gave it focus would then toggle
    // it shut again (downshift's InputClick), so a click never closes it: Escape, a choice or leaving the box do.
    stateReducer: (state, { type, changes }) =>
      type === useCombobox.stateChangeTypes.InputClick
        ? { ...changes, isOpen: true, highlightedIndex: state.isOpen ? state.highlightedIndex : changes.highlightedIndex }
        : changes,
  })

  const status = options.isPending ? 'Cargando...' : options.isError ? errorText : null
  return (
    <Form.Group className={`position-relative${className ? ` ${className}` : ''}`}>
      <Form.Label {...getLabelProps({ className: labelClassName })}>{label}</Form.Label>
      <Form.Control
        {...getInputProps({
          onFocus: () => {
            if (!isOpen) openMenu()
          },
          onBlur,
          ref: inputRef,
        })}
        placeholder={placeholder}
        autoComplete="off"
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : help ? helpId : undefined}
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
        {error}
      </Form.Control.Feedback>
      {help && !error && (
        <Form.Text id={helpId} className="d-block">
          {help}
        </Form.Text>
      )}
    </Form.Group>
  )
}

interface RemoteComboboxFieldProps<T extends FieldValues, C, O>
  extends Pick<RemoteComboboxProps, 'label' | 'placeholder' | 'help' | 'queryKey' | 'search' | 'errorText'> {
  form: UseFormReturn<T, C, O>
  name: Path<T>
  /** The option the form starts with (its label is not in any page loaded yet). */
  current?: SelectOption | null
}

/** A RemoteCombobox bound to a form: the form keeps the chosen id (a number, as the shared schema wants). */
export function RemoteComboboxField<T extends FieldValues, C, O>({
  form,
  name,
  current,
  ...props
}: RemoteComboboxFieldProps<T, C, O>) {
  const { field, fieldState } = useController({ name, control: form.control })
  const [selected, setSelected] = useState<SelectOption | null>(current ?? null)

  // The form was reset (the modal opened on another record): show that record's option.
  const currentValue = current?.value
  const currentLabel = current?.label
  useEffect(() => {
    setSelected(currentValue === undefined ? null : { value: currentValue, label: currentLabel ?? '' })
  }, [currentValue, currentLabel])

  const clearError = () => {
    if (fieldState.error) form.clearErrors(name)
  }
  return (
    <RemoteCombobox
      {...props}
      value={selected}
      onChange={(option) => {
        setSelected(option)
        field.onChange(option ? Number(option.value) : undefined)
        clearError()
      }}
      onType={clearError}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.error?.message}
    />
  )
}
