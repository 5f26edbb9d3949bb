import { afterEach, describe, expect, it } from 'vitest'
import { drafts } from './drafts'

const form =
  (values: unknown, record: unknown = null) =>
  () => ({ form: 'viviendas', record, values })

describe('drafts', () => {
  afterEach(() => drafts.clear())

  it('keeps the open form with typed changes when the session ends, and gives it back once, to its worker and screen', () => {
    const withdraw = drafts.offer(form({ nombre: 'Calle Alta' }, { id: 7, version: 'v1' }))
    drafts.keep(3, '/viviendas', null)
    withdraw()
    expect(drafts.take(3, '/usuarios', 'viviendas')).toBeNull()
    expect(drafts.take(3, '/viviendas', 'usuarios')).toBeNull()
    expect(drafts.take(3, '/viviendas', 'viviendas')).toEqual({
      form: 'viviendas',
      record: { id: 7, version: 'v1' },
      values: { nombre: 'Calle Alta' },
    })
    expect(drafts.take(3, '/viviendas', 'viviendas')).toBeNull()
  })

  it('reads the values when the session ends, not when the form offered them', () => {
    let nombre = 'Calle'
    const withdraw = drafts.offer(() => ({ form: 'viviendas', record: null, values: { nombre } }))
    nombre = 'Calle Alta 12'
    drafts.keep(3, '/viviendas', null)
    withdraw()
    expect(drafts.take(3, '/viviendas', 'viviendas')?.values).toEqual({ nombre: 'Calle Alta 12' })
  })

  it('keeps nothing when no form offers (closed, saved or untouched), or with no worker known', () => {
    const withdraw = drafts.offer(form({ nombre: 'Calle Alta' }))
    withdraw()
    drafts.keep(3, '/viviendas', null)
    expect(drafts.take(3, '/viviendas', 'viviendas')).toBeNull()
    const again = drafts.offer(form({ nombre: 'Calle Alta' }))
    drafts.keep(undefined, '/viviendas', null)
    again()
    expect(drafts.take(undefined, '/viviendas', 'viviendas')).toBeNull()
  })

  it("drops a worker's draft when another logs in, or when the session ends with no form open", () => {
    const withdraw = drafts.offer(form({ nombre: 'Calle Alta' }))
    drafts.keep(3, '/viviendas', null)
    withdraw()
    drafts.loggedIn(3)
    drafts.loggedIn(4)
    expect(drafts.take(3, '/viviendas', 'viviendas')).toBeNull()

    const other = drafts.offer(form({ nombre: 'Calle Baja' }))
    drafts.keep(3, '/viviendas', null)
    other()
    // Seen by another worker's screen: dropped, not kept for later.
    expect(drafts.take(4, '/viviendas', 'viviendas')).toBeNull()
    expect(drafts.take(3, '/viviendas', 'viviendas')).toBeNull()

    const last = drafts.offer(form({ nombre: 'Calle Media' }))
    drafts.keep(3, '/viviendas', null)
    last()
    drafts.keep(3, '/viviendas', null)
    expect(drafts.take(3, '/viviendas', 'viviendas')).toBeNull()
  })

  it("gives the company chosen when the session ended back at the same worker's login, once; another's drops it", () => {
    const fundacion = { id: 2, nombre: 'Fundación Vivir Acompañados' }
    drafts.keep(3, '/usuarios', fundacion)
    expect(drafts.loggedIn(3)).toEqual(fundacion)
    expect(drafts.loggedIn(3)).toBeUndefined()
    // All of the worker's companies is a choice too.
    drafts.keep(3, '/usuarios', null)
    expect(drafts.loggedIn(3)).toBeNull()
    drafts.keep(3, '/usuarios', fundacion)
    expect(drafts.loggedIn(4)).toBeUndefined()
    expect(drafts.loggedIn(3)).toBeUndefined()
    drafts.keep(undefined, '/usuarios', fundacion)
    expect(drafts.loggedIn(3)).toBeUndefined()
  })

  it('keeps the form for the screen after the company has been chosen again at the login', () => {
    const withdraw = drafts.offer(form({ nombre: 'Calle Alta' }))
    drafts.keep(3, '/viviendas', { id: 2, nombre: 'Fundación Vivir Acompañados' })
    withdraw()
    expect(drafts.loggedIn(3)).toEqual({ id: 2, nombre: 'Fundación Vivir Acompañados' })
    expect(drafts.take(3, '/viviendas', 'viviendas')?.values).toEqual({ nombre: 'Calle Alta' })
  })
})
