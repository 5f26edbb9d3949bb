import { PgDialect, pgTable, text } from 'drizzle-orm/pg-core'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { usuarios } from '../db/schema'
import { buildTestApp } from '../test/build-test-app'
import { makeEmpresa, makeUsuario, makeVivienda } from '../test/factories'
import { searchMatches } from './paging'
import { forgetTrigramCounts, loadedTrigramCounts, rarestTrigram, trigramCounts } from './trigram-counts'

const dialect = new PgDialect()
const rendered = (q: string, counts?: ReadonlyMap<string, number>) =>
  dialect.sqlToQuery(searchMatches(usuarios.busqueda, q, counts))

describe('rarestTrigram: the trigram of a word with the fewest rows', () => {
  const counts = new Map([
    ['jos', 2520],
    ['ose', 2600],
    ['mar', 19155],
    ['art', 5620],
    ['rti', 5000],
    ['tin', 13322],
  ])

  it('picks the rarest, and a trigram no row holds before any', () => {
    expect(rarestTrigram('jose', counts)).toBe('jos')
    expect(rarestTrigram('martin', counts)).toBe('rti')
    expect(rarestTrigram('martinez', counts)).toBe('ine')
  })

  it('only trigrams the index holds as such: three ASCII letters or digits', () => {
    expect(rarestTrigram('ab', counts)).toBeUndefined()
    expect(rarestTrigram('a-b-c', counts)).toBeUndefined()
    expect(rarestTrigram('jo-martin', counts)).toBe('rti')
    expect(rarestTrigram('ñañ', counts)).toBeUndefined()
  })
})

describe('searchMatches with trigram counts', () => {
  const counts = new Map([
    ['luc', 900],
    ['uci', 950],
    ['cia', 8000],
    ['san', 7000],
    ['anc', 6000],
    ['nch', 5000],
    ['che', 5100],
    ['hez', 5200],
  ])

  it('asks the index for each word’s rarest trigram and keeps the rows that hold the whole term', () => {
    expect(rendered('Lucía Sánchez', counts).params).toEqual(['%luc%nch%', 'Lucía Sánchez'])
    expect(rendered('de lucía sánchez', counts).params).toEqual(['%de%luc%nch%', 'de lucía sánchez'])
    // LIKE's wildcards stay literal in the term.
    expect(rendered('lucia 50% sánchez', counts).params).toEqual(['%luc%50\\%%nch%', 'lucia 50% sánchez'])
  })

  it('one word with a trigram (and words under three letters beside it) is asked whole, as without counts', () => {
    expect(rendered('sánchez', counts).params).toEqual(['%sánchez%'])
    expect(rendered('de lucia', counts).params).toEqual(['%de%lucia%', 'de lucia'])
  })

  it('the words and the term go to PostgreSQL as typed, made lower case and unaccented there as the column is', () => {
    expect(rendered('Lucía Sánchez', counts).sql).toBe(
      '("usuarios"."busqueda" like f_unaccent(lower($1)) and strpos("usuarios"."busqueda", f_unaccent(lower($2))) > 0)',
    )
    // A word the counts cannot be asked for faithfully is asked whole: 'ł' and Catalan's 'l·l' are PostgreSQL's to
    // read ('ł' is 'l' there; the '·' stays), not a trigram worked out here.
    expect(rendered('Łukasz Wójcik', counts).params).toEqual(['%Łukasz%Wójcik%', 'Łukasz Wójcik'])
    expect(rendered('col·legi lucía sánchez', counts).params).toEqual(['%col·legi%luc%nch%', 'col·legi lucía sánchez'])
  })

  it('without counts, as before: one word as a LIKE, several in order and the phrase', () => {
    expect(rendered('Sánchez').params).toEqual(['%Sánchez%'])
    expect(rendered('Lucía Sánchez').params).toEqual(['%Lucía%Sánchez%', 'Lucía Sánchez'])
    // A word with no trigram the counts know: the word itself, as LIKE has it.
    expect(rendered('lu', counts).params).toEqual(['%lu%'])
  })
})

const t = await buildTestApp()
afterAll(() => t.close())
const empresa = await makeEmpresa(t.db)
const casa = await makeVivienda(t.db, empresa.id)
await makeUsuario(t.db, casa.id, { nombre: 'Trigrama', apellidos: 'Cuenta Cuenta', nif: '00000001R' })

describe('trigramCounts: read in the background from the column, once', () => {
  it('answers nothing until read, then the rows of each trigram', async () => {
    forgetTrigramCounts(t.db)
    expect(trigramCounts(t.db, usuarios.busqueda)).toBeUndefined()
    const counts = await loadedTrigramCounts(t.db, usuarios.busqueda)
    expect(counts?.get('cue')).toBe(1)
    expect(counts?.get('tri')).toBeGreaterThanOrEqual(1)
    expect(trigramCounts(t.db, usuarios.busqueda)).toBe(counts)
  })

  it('a read that fails leaves a search without counts, and throws nowhere', async () => {
    const missing = pgTable('tabla_que_no_existe', { busqueda: text('busqueda') })
    expect(await loadedTrigramCounts(t.db, missing.busqueda)).toBeUndefined()
    expect(trigramCounts(t.db, missing.busqueda)).toBeUndefined()
  })

  it('after a failed read, searches try again once a minute has passed, not before', async () => {
    const missing = pgTable('otra_tabla_que_no_existe', { busqueda: text('busqueda') })
    let now = performance.now()
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now)
    const execute = vi.spyOn(t.db, 'execute')
    try {
      expect(await loadedTrigramCounts(t.db, missing.busqueda)).toBeUndefined()
      const reads = execute.mock.calls.length
      expect(reads).toBeGreaterThan(0)
      now += 59_000
      expect(await loadedTrigramCounts(t.db, missing.busqueda)).toBeUndefined()
      expect(execute.mock.calls.length).toBe(reads)
      now += 2_000
      expect(await loadedTrigramCounts(t.db, missing.busqueda)).toBeUndefined()
      expect(execute.mock.calls.length).toBeGreaterThan(reads)
    } finally {
      execute.mockRestore()
      clock.mockRestore()
    }
  })
})
