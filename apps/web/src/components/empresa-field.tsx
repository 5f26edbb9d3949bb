import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { empresaPickerKey, searchEmpresas } from '../lib/pickers'
import { useEmpresa } from '../lib/use-empresa'
import { RemoteComboboxField } from './remote-combobox-field'

interface EmpresaFieldProps<T extends FieldValues, C, O> {
  form: UseFormReturn<T, C, O>
  name: Path<T>
  /** The record's company when editing; a new record starts with the company chosen in the top bar. */
  current?: { id: number; nombre: string } | null
}

/** 'Empresa' of a home or a contact form: a server-searched picker of the worker's companies. */
export function EmpresaField<T extends FieldValues, C, O>({ form, name, current }: EmpresaFieldProps<T, C, O>) {
  const selected = useEmpresa()
  const start = current ?? selected
  return (
    <RemoteComboboxField
      form={form}
      name={name}
      label="Empresa"
      placeholder="Escribe para buscar una empresa"
      queryKey={empresaPickerKey}
      search={searchEmpresas}
      current={start ? { value: start.id, label: start.nombre } : null}
    />
  )
}
