import { MAX_EXACT_TOTAL } from '@vb/shared'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { usuarios } from '../../db/schema'
import { shapeTemplated } from '../../lib/select-rows'
import { forgetTrigramCounts, loadedTrigramCounts } from '../../lib/trigram-counts'
import type { TestWorker } from '../../test/build-test-app'
import { makeUsuario, makeVivienda } from '../../test/factories'
import { testScenario } from '../../test/scenario'
import { setOneScanMatches } from './usuarios.service'

/**
 * A new search reads its page and its total from one scan when it finds few residents, and as two statements
 * (the page, then the bounded count) otherwise (usuarios.service.ts, searchedPage). Both must give the same
 * answer, for every sort, order and page, for every scope, and keep the D13 cap.
 */

const scenario = await testScenario({
  empresaA: { nombre: 'Empresa Busca' },
  empresaB: { nombre: 'Empresa Ajena' },
  viviendaA: { nombre: 'Zamora 1' },
  viviendaB: { nombre: 'Burgos 1' },
})
const { t, viviendaA, viviendaB, admin, superadmin } = scenario
const homeA2 = await makeVivienda(t.db, scenario.empresaA.id, { nombre: 'Ávila 2' })

// 'Pareja' residents with ties in every sort key, and residents the search must leave out.
const grados = ['PVS', 'PEI', null] as const
const nombres = ['Ana', 'ángel', 'Ana', 'Berta', 'Óscar', 'ana']
const parejaA: number[] = []
for (let i = 0; i < 13; i++) {
  const u = await makeUsuario(t.db, i % 3 === 0 ? homeA2.id : viviendaA.id, {
    nombre: nombres[i % nombres.length] as string,
    apellidos: i % 4 === 0 ? 'Pareja' : `Pareja ${['Sol', 'Álamo', 'luna'][i % 3]}`,
    gradoDependencia: grados[i % 3],
  })
  parejaA.push(u.id)
}
for (let i = 0; i < 3; i++) await makeUsuario(t.db, viviendaA.id, { nombre: 'Ana', apellidos: `Otro ${i}` })
// Another company's and a homeless 'Pareja': the SUPERADMIN's search finds them, the ADMIN's does not.
await makeUsuario(t.db, viviendaB.id, { nombre: 'Ana', apellidos: 'Pareja Ajena' })
await makeUsuario(t.db, null, { nombre: 'Ana', apellidos: 'Pareja Sin Casa' })

afterEach(() => setOneScanMatches(200))

const get = async (who: TestWorker, url: string) => {
  const res = await t.as(who, { method: 'GET', url })
  expect(res.statusCode).toBe(200)
  return {
    total: res.headers['x-total-count'],
    exact: res.headers['x-total-count-exact'],
    body: res.json() as Array<{ id: number }>,
  }
}

describe('GET /api/usuarios?q=…: one scan or two statements, the same answer', () => {
  it('gives the same rows, order and total for every sort, order, page and scope, past the last page too', async () => {
    const sorts = ['', '&sort=nombre', '&sort=apellidos', '&sort=nif', '&sort=gradoDependencia', '&sort=vivienda']
    for (const [who, matches] of [
      [admin, 13],
      [superadmin, 15],
    ] as const) {
      for (const sort of sorts) {
        for (const order of ['', '&order=desc']) {
          const seen: number[] = []
          for (const page of [1, 2, 3, 4, 9]) {
            const url = `/api/usuarios?q=PAREJA&page=${page}&pageSize=4${sort}${order}`
            setOneScanMatches(200)
            const oneScan = await get(who, url)
            setOneScanMatches(0)
            const twoStatements = await get(who, url)
            expect(oneScan, url).toEqual(twoStatements)
            expect(oneScan.total).toBe(String(matches))
            expect(oneScan.exact).toBeUndefined()
            seen.push(...oneScan.body.map((u) => u.id))
          }
          // The pages cover every match once.
          expect(new Set(seen).size).toBe(matches)
          expect(seen).toHaveLength(matches)
          if (who === admin) expect([...seen].sort((a, b) => a - b)).toEqual(parejaA)
        }
      }
    }
    // The one scan's statement is built once per sort and order and rendered into (lib/select-rows.ts).
    expect(shapeTemplated('usuarios:buscar:undefined:undefined|first', true)).toBe(true)
    expect(shapeTemplated('usuarios:buscar:vivienda:desc|offset', true)).toBe(true)
  })

  it('answers a search that finds nothing with an empty page and a total of 0', async () => {
    for (const limit of [200, 0]) {
      setOneScanMatches(limit)
      expect(await get(admin, '/api/usuarios?q=nadie%20se%20llama%20asi')).toEqual({ total: '0', exact: undefined, body: [] })
    }
  })

  it('reads a search with more matches than one scan takes as two statements', async () => {
    const home = await makeVivienda(t.db, scenario.empresaA.id)
    await t.db.execute(sql`insert into usuarios (nombre, apellidos, nif, vivienda_id)
      select 'Gentío', 'Gentío ' || lpad(i::text, 4, '0'), 'G' || lpad(i::text, 8, '0'), ${home.id}
      from generate_series(1, 230) i`)
    const res = await get(admin, '/api/usuarios?q=gentio&page=2&pageSize=50')
    expect(res.total).toBe('230')
    expect(res.exact).toBeUndefined()
    expect(res.body.map((u) => (u as unknown as { apellidos: string }).apellidos)).toEqual(
      Array.from({ length: 50 }, (_, i) => `Gentío ${String(51 + i).padStart(4, '0')}`),
    )
  })

  it(`caps the total at ${MAX_EXACT_TOTAL} beyond it, with the same pages, whichever way it is read`, async () => {
    const home = await makeVivienda(t.db, scenario.empresaA.id)
    const n = MAX_EXACT_TOTAL + 5
    await t.db.execute(sql`insert into usuarios (nombre, apellidos, nif, vivienda_id)
      select 'Masa', 'Masivo ' || lpad(i::text, 5, '0'), 'M' || lpad(i::text, 8, '0'), ${home.id}
      from generate_series(1, ${n}) i`)
    const apellidos = (body: unknown[]) => body.map((u) => (u as { apellidos: string }).apellidos)
    const expected = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `Masivo ${String(from + i).padStart(5, '0')}`)
    // The default (two statements beyond one scan's limit), and one scan taking every match (the cap then
    // comes from the count of the scan itself).
    for (const limit of [200, n + 10]) {
      setOneScanMatches(limit)
      const first = await get(admin, '/api/usuarios?q=masivo&page=1&pageSize=20')
      expect(first.total).toBe(String(MAX_EXACT_TOTAL))
      expect(first.exact).toBe('false')
      expect(apellidos(first.body)).toEqual(expected(1, 20))
      // The page past the cap is still the real one: the rows are not cut at the count's limit.
      const last = await get(admin, `/api/usuarios?q=masivo&page=${MAX_EXACT_TOTAL / 50 + 1}&pageSize=50`)
      expect(apellidos(last.body)).toEqual(expected(MAX_EXACT_TOTAL + 1, 5))
      const desc = await get(admin, '/api/usuarios?q=masivo&page=1&pageSize=3&order=desc')
      expect(apellidos(desc.body)).toEqual(expected(n - 2, 3).reverse())
    }
  })
})

describe('GET /api/usuarios?q=… with several words: the phrase, as typed', () => {
  it('finds the words together and in order, never apart or swapped, with accents and wildcards literal', async () => {
    const home = await makeVivienda(t.db, scenario.empresaA.id)
    const make = (nombre: string, apellidos: string) => makeUsuario(t.db, home.id, { nombre, apellidos })
    const lucia = await make('Lucía', 'Frasesánchez Alonso')
    const apart = await make('Lucía', 'Otra Frasesánchez')
    const swapped = await make('Frasesánchez', 'Lucía Ruiz')
    const literal = await make('Fra_se%', 'Comodín Pérez')
    const ids = async (q: string) => {
      const found: number[][] = []
      // The index asks for the words in order (`%lucia%frasesanchez%`); the rows must hold the phrase itself,
      // whether the page comes from one scan or from two statements.
      // And whether the index is asked for every trigram (no counts yet) or for each word's rarest (counts read).
      for (const counts of [false, true]) {
        if (counts) await loadedTrigramCounts(t.db, usuarios.busqueda)
        else forgetTrigramCounts(t.db)
        for (const limit of [200, 0]) {
          setOneScanMatches(limit)
          found.push((await get(admin, `/api/usuarios?q=${encodeURIComponent(q)}`)).body.map((u) => u.id).sort((a, b) => a - b))
        }
      }
      for (const other of found) expect(other, q).toEqual(found[0])
      return found[0]
    }
    expect(await ids('LUCIA frasesánchez')).toEqual([lucia.id])
    expect(await ids('lucía frasesanchez alonso')).toEqual([lucia.id])
    expect(await ids('cía frasesánchez al')).toEqual([lucia.id])
    // 'lucia … frasesanchez' with a word between, and the words the other way round: not the phrase.
    expect(await ids('lucia otra frasesanchez')).toEqual([apart.id])
    expect(await ids('frasesanchez lucia')).toEqual([swapped.id])
    // Two spaces are not one; LIKE's wildcards are letters.
    expect(await ids('lucia  frasesanchez')).toEqual([])
    expect(await ids('fra_se% comodin')).toEqual([literal.id])
    expect(await ids('fra%se comodin')).toEqual([])
    // One word, a word under three letters, a part of a word, digits, a hyphen.
    expect(await ids('frasesánchez')).toEqual([lucia.id, apart.id, swapped.id].sort((a, b) => a - b))
    expect(await ids('otra frasesanchez')).toEqual([apart.id])
    expect(await ids('a frasesanchez')).toEqual([lucia.id, apart.id].sort((a, b) => a - b))
    expect(await ids('esanch')).toEqual([lucia.id, apart.id, swapped.id].sort((a, b) => a - b))
    expect(await ids('lucia-frasesanchez')).toEqual([])
  })
})
