import { type QueryKey, useQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import { Button, Form, InputGroup } from 'react-bootstrap'
import type { FieldValues, Path, PathValue, RegisterOptions, UseFormReturn } from 'react-hook-form'
import { registerClearing } from '../lib/form-errors'
import { Icon } from './icon'

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
  const registered = registerClearing(form, name, options)
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

interface SwitchFieldProps<T extends FieldValues, C, O> extends FieldProps<T, C, O> {
  disabled?: boolean
}

/** A labelled on/off switch bound to a boolean field (a worker's 'Activo'). */
export function SwitchField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  help,
  disabled = false,
}: SwitchFieldProps<T, C, O>) {
  const { id, message, errorId, helpId, registered } = useFieldBinding(form, name)
  return (
    <Form.Group controlId={id}>
      <Form.Check
        type="switch"
        label={label}
        disabled={disabled}
        isInvalid={Boolean(message)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : help ? helpId : undefined}
        {...registered}
      />
      {message ? (
        <div id={errorId} className="invalid-feedback d-block">
          {message}
        </div>
      ) : (
        help && (
          <Form.Text id={helpId} className="d-block">
            {help}
          </Form.Text>
        )
      )}
    </Form.Group>
  )
}

export interface CheckboxOption extends SelectOption {
  /** Shown and kept, but not changeable here (a company the worker is in that the admin does not manage). */
  disabled?: boolean
}

interface CheckboxGroupFieldProps<T extends FieldValues, C, O> extends FieldProps<T, C, O> {
  options: CheckboxOption[]
  /** Shown instead of the options while they load, or when there are none. */
  emptyText?: string
}

/**
 * A group of checkboxes bound to an array field of ids (a worker's companies): a fieldset whose legend is
 * the label, its error under it.
 */
export function CheckboxGroupField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  help,
  options,
  emptyText,
}: CheckboxGroupFieldProps<T, C, O>) {
  const id = useId()
  const { error } = form.getFieldState(name, form.formState)
  const message =
    error?.message ?? (error as unknown as Array<{ message?: string }> | undefined)?.find?.((e) => e?.message)?.message
  const value = ((form.watch(name) as Array<string | number> | undefined) ?? []).map(String)
  const set = (next: Array<string | number>) => {
    form.clearErrors(name)
    form.setValue(name, next as PathValue<T, Path<T>>, { shouldDirty: true })
  }
  const toggle = (option: CheckboxOption, checked: boolean) => {
    const rest = value.filter((v) => v !== String(option.value))
    const chosen = (checked ? [...rest, String(option.value)] : rest).map((v) =>
      typeof option.value === 'number' ? Number(v) : v,
    )
    set(chosen)
  }
  return (
    <fieldset aria-describedby={message ? `${id}-error` : help ? `${id}-help` : undefined}>
      <legend className="form-label fs-6 mb-1">{label}</legend>
      {options.length === 0 && emptyText && <p className="text-body-secondary small mb-1">{emptyText}</p>}
      <div className="vb-checkbox-group">
        {options.map((option) => (
          <Form.Check
            key={option.value}
            id={`${id}-${option.value}`}
            type="checkbox"
            label={option.label}
            disabled={option.disabled}
            checked={value.includes(String(option.value))}
            isInvalid={Boolean(message)}
            onChange={(e) => toggle(option, e.target.checked)}
          />
        ))}
      </div>
      {message ? (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {message}
        </div>
      ) : (
        help && (
          <Form.Text id={`${id}-help`} className="d-block">
            {help}
          </Form.Text>
        )
      )}
    </fieldset>
  )
}

interface RemoteCheckboxGroupFieldProps<T extends FieldValues, C, O> extends Omit<CheckboxGroupFieldProps<T, C, O>, 'options'> {
  queryKey: QueryKey
  /** Loads the choices (the companies the worker may give); the field never imports a feature. */
  fetcher: () => Promise<SelectOption[]>
  /** Choices that must be there even if the fetcher does not return them (the record's own, shown disabled). */
  extraOptions?: CheckboxOption[]
}

/** A group of checkboxes whose choices come from the server through a fetcher. */
export function RemoteCheckboxGroupField<T extends FieldValues, C, O>({
  queryKey,
  fetcher,
  extraOptions = [],
  ...rest
}: RemoteCheckboxGroupFieldProps<T, C, O>) {
  const query = useQuery({ queryKey, queryFn: fetcher, staleTime: 30_000 })
  const loaded = query.data ?? []
  const options = [...loaded, ...extraOptions.filter((e) => !loaded.some((o) => o.value === e.value))]
  const emptyText = query.isPending ? 'Cargando...' : query.isError ? 'No se pudieron cargar las opciones.' : rest.emptyText
  return <CheckboxGroupField {...rest} options={options} emptyText={emptyText} />
}

interface LockedTextFieldProps<T extends FieldValues, C, O> extends TextFieldProps<T, C, O> {
  /** The field can be typed in (its pencil was pressed). */
  unlocked: boolean
  onUnlock: () => void
  /** The pencil's accessible name, e.g. 'Editar nombre'. */
  unlockLabel: string
}

/**
 * SPEC §2.21: a text field shown read-only until its pencil button is pressed; then it takes the focus and
 * behaves as a TextField (its error under it).
 */
export function LockedTextField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  help,
  type = 'text',
  autoComplete,
  unlocked,
  onUnlock,
  unlockLabel,
}: LockedTextFieldProps<T, C, O>) {
  const { id, message, errorId, helpId, registered } = useFieldBinding(form, name)
  const { setFocus } = form
  const unlock = () => {
    onUnlock()
    window.setTimeout(() => setFocus(name), 0)
  }
  return (
    <Form.Group controlId={id}>
      <Form.Label>{label}</Form.Label>
      <InputGroup hasValidation>
        <Form.Control
          type={type}
          readOnly={!unlocked}
          plaintext={false}
          className={unlocked ? undefined : 'bg-body-tertiary'}
          autoComplete={autoComplete ?? 'off'}
          isInvalid={Boolean(message)}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : help ? helpId : undefined}
          {...registered}
        />
        <Button variant="outline-secondary" onClick={unlock} disabled={unlocked} aria-label={unlockLabel} aria-pressed={unlocked}>
          <Icon name="pencil" />
        </Button>
        <Feedback id={errorId} message={message} helpId={helpId} help={help} />
      </InputGroup>
    </Form.Group>
  )
}
