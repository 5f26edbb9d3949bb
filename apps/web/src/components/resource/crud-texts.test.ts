import { describe, expect, it } from 'vitest'
import { crudTexts } from './crud-page'

describe('crudTexts', () => {
  it('writes the usual texts of a screen from its noun, in both genders', () => {
    const m = crudTexts<{ nombre: string }>({ singular: 'proveedor', plural: 'Proveedores', label: (p) => p.nombre })
    expect(m).toMatchObject({
      search: 'Buscar proveedor',
      caption: 'Proveedores',
      empty: 'No hay proveedores.',
      newButton: 'Nuevo proveedor',
      createTitle: 'Añadir Nuevo Proveedor',
      editTitle: 'Modificar Proveedor',
      created: 'Proveedor creado correctamente',
      updated: 'Proveedor modificado correctamente',
      deleted: 'Proveedor eliminado correctamente',
    })
    expect(m.deleteQuestion({ nombre: 'Limpiezas Sur' })).toBe('¿Seguro que quieres eliminar el proveedor Limpiezas Sur?')
    const f = crudTexts<{ nombre: string }>({
      singular: 'tarea del planing',
      plural: 'Tareas',
      feminine: true,
      label: (t) => t.nombre,
    })
    expect(f).toMatchObject({
      newButton: 'Nueva tarea del planing',
      createTitle: 'Añadir Nueva Tarea Del Planing',
      created: 'Tarea del planing creada correctamente',
    })
  })
})
