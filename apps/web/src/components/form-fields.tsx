import { type QueryKey, useQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import { Form, InputGroup } from 'react-bootstrap'
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form'

/**
 * SPEC §5: errors show under each field and are cleared when the field is edited, so a form validates on
 * submit only (`useForm({ ...formValidation, resolver })`) and each field clears its own error on change.
 */
export const formValidation = { mode: 'onSubmit', reValidateMode: 'onSubmit' } as const

interface FieldProps<T extends FieldValues, C, O> {
  form: UseFormReturn<T, C, O>
  name: Path<T>
  label: string
  /** A hint under the field, while it has no error. */
  help?: ReactNode
  autoFocus?: boolean
}

function useFieldBinding<T extends FieldValues, C, O>(
  form: UseFormReturn<T, C, O>,
  name: Path<T>,
  options?: RegisterOptions<T, Path<T>>,
) {
  const id = useId()
  const { error } = form.getFieldState(name, form.formState)
  const message = error?.message
  const errorId = `${id}-error`
  const helpId = `${id}-help`
  const registered = form.register(name, {
    ...options,
    onChange: () => {
      if (form.getFieldState(name).error) form.clearErrors(name)
    },
  })
  return { id, message, errorId, helpId, registered }
}

function Feedback({ id, message, helpId, help }: { id: string; message?: string; helpId: string; help?: ReactNode }) {
  return (
    <>
      <Form.Control.Feedback type="invalid" id={id}>
        {message}
      </Form.Control.Feedback>
      {help && !message && (
        <Form.Text id={helpId} className="d-block">
          {help}
        </Form.Text>
      )}
    </>
  )
}

interface TextFieldProps<T extends FieldValues, C, O> extends FieldProps<T, C, O> {
  type?: 'text' | 'email' | 'tel' | 'url' | 'date' | 'datetime-local'
  /** A text of several lines (a description): a textarea of this many rows. */
  rows?: number
  placeholder?: string
  autoComplete?: string
  /** The phone keyboard to offer (amounts: 'decimal'). */
  inputMode?: 'text' | 'decimal' | 'numeric'
  /** Text or a symbol after the input (e.g. '€'). */
  suffix?: ReactNode
}

/** A labelled text input bound to react-hook-form, its error under it (Form.Control.Feedback). */
export function TextField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  help,
  autoFocus,
  type = 'text',
  placeholder,
  autoComplete,
  inputMode,
  suffix,
  rows,
}: TextFieldProps<T, C, O>) {
  const { id, message, errorId, helpId, registered } = useFieldBinding(form, name)
  const control = (
    <Form.Control
      {...(rows ? { as: 'textarea' as const, rows } : { type })}
      placeholder={placeholder}
      autoComplete={autoComplete ?? 'off'}
      autoFocus={autoFocus}
      inputMode={inputMode}
      isInvalid={Boolean(message)}
      aria-invalid={message ? true : undefined}
      aria-describedby={message ? errorId : help ? helpId : undefined}
      {...(type === 'date' ? { min: '1900-01-01', max: '2100-12-31' } : {})}
      {...(type === 'datetime-local' ? { min: '1900-01-01T00:00', max: '2100-12-31T23:59' } : {})}
      {...registered}
    />
  )
  return (
    <Form.Group controlId={id}>
      <Form.Label>{label}</Form.Label>
      {suffix ? (
        <InputGroup hasValidation>
          {control}
          <InputGroup.Text>{suffix}</InputGroup.Text>
          <Feedback id={errorId} message={message} helpId={helpId} help={help} />
        </InputGroup>
      ) : (
        <>
          {control}
          <Feedback id={errorId} message={message} helpId={helpId} help={help} />
        </>
      )}
    </Form.Group>
  )
}

export interface SelectOption {
  value: string | number
  label: string
  /** Options with a group are shown under an <optgroup> of that name. */
  group?: string
}

interface SelectFieldProps<T extends FieldValues, C, O> extends FieldProps<T, C, O> {
  options: SelectOption[]
  /** The empty first option ('' → undefined for numeric selects). */
  placeholder?: string
  /** Ids: the value reaches the schema as a number, '' as undefined. */
  numeric?: boolean
  disabled?: boolean
}

/** A labelled select bound to react-hook-form; numeric selects send numbers to the shared schema. */
export function SelectField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  help,
  autoFocus,
  options,
  placeholder,
  numeric = false,
  disabled = false,
}: SelectFieldProps<T, C, O>) {
  const { id, message, errorId, helpId, registered } = useFieldBinding(
    form,
    name,
    numeric ? { setValueAs: (v: unknown) => (v === '' || v === undefined || v === null ? undefined : Number(v)) } : undefined,
  )
  const groups = new Map<string, SelectOption[]>()
  const loose: SelectOption[] = []
  for (const option of options) {
    if (!option.group) loose.push(option)
    else groups.set(option.group, [...(groups.get(option.group) ?? []), option])
  }
  const render = (o: SelectOption) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  )
  return (
    <Form.Group controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        autoFocus={autoFocus}
        disabled={disabled}
        isInvalid={Boolean(message)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : help ? helpId : undefined}
        {...registered}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {loose.map(render)}
        {[...groups].map(([group, list]) => (
          <optgroup key={group} label={group}>
            {list.map(render)}
          </optgroup>
        ))}
      </Form.Select>
      <Feedback id={errorId} message={message} helpId={helpId} help={help} />
    </Form.Group>
  )
}

interface RemoteSelectFieldProps<T extends FieldValues, C, O> extends Omit<SelectFieldProps<T, C, O>, 'options' | 'disabled'> {
  queryKey: QueryKey
  /** Loads the options (e.g. the homes the worker can see); the picker never imports a feature. */
  fetcher: () => Promise<SelectOption[]>
  /** Options that must be there even if the fetcher does not return them (e.g. the record's current value). */
  extraOptions?: SelectOption[]
}

/** A select whose options come from the server through a fetcher (homes, companies…). */
export function RemoteSelectField<T extends FieldValues, C, O>({
  queryKey,
  fetcher,
  extraOptions = [],
  placeholder,
  ...rest
}: RemoteSelectFieldProps<T, C, O>) {
  const query = useQuery({ queryKey, queryFn: fetcher, staleTime: 30_000 })
  const loaded = query.data ?? []
  const options = [...loaded, ...extraOptions.filter((e) => !loaded.some((o) => o.value === e.value))]
  const help = query.isPending ? 'Cargando...' : query.isError ? 'No se pudieron cargar las opciones.' : rest.help
  return (
    // Remounted once the options arrive, so react-hook-form can show the form's value in the new select.
    <SelectField
      key={query.isSuccess ? 'ready' : 'loading'}
      {...rest}
      help={help}
      placeholder={placeholder}
      options={options}
      disabled={query.isPending && extraOptions.length === 0}
    />
  )
}
