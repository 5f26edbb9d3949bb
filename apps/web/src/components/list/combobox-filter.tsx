import { useMemo, useState } from 'react'
import type { SelectOption } from '../form-fields'
import { RemoteCombobox } from '../remote-combobox-field'
import type { ComboboxFilter as Filter } from './types'

/** A filter over a table that grows: the server searches it; emptying the box removes the filter. */
export function ComboboxFilter({
  filter,
  value,
  onChange,
}: {
  filter: Filter
  value: string
  onChange: (value: string) => void
}) {
  // The option chosen here names the value at once; a value from a link waits for the screen's `current`.
  const [picked, setPicked] = useState<SelectOption | null>(null)
  // One object per value: the combobox takes a new object for another choice.
  const unnamed = useMemo(() => ({ value, label: '' }), [value])
  const chosen =
    value === ''
      ? null
      : picked && String(picked.value) === value
        ? picked
        : filter.current && String(filter.current.value) === value
          ? filter.current
          : unnamed
  return (
    <RemoteCombobox
      className="vb-list-filter vb-list-filter-select"
      labelClassName="fw-semibold mb-1"
      label={filter.label}
      placeholder={filter.placeholder ?? 'Todos'}
      queryKey={filter.queryKey}
      search={filter.search}
      value={chosen}
      onChange={(option) => {
        setPicked(option)
        onChange(option ? String(option.value) : '')
      }}
    />
  )
}
