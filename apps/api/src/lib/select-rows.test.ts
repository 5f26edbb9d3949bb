import * as drizzle from 'drizzle-orm'
import { and, asc, desc, eq, like, type SQL, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import type { DbOrTx } from '../db/client'
import { usuarios, viviendas } from '../db/schema'
import { buildTestApp } from '../test/build-test-app'
import { makeEmpresa, makeUsuario, makeVivienda } from '../test/factories'
import { boundedTotalKey } from './records'
import {
  checkRowMapping,
  isoInstant,
  preparedRows,
  renderCondition,
  rowMapper,
  selectPage,
  selectRows,
  selectShaped,
  shapeTemplated,
} from './select-rows'

const { mapResultRow } = drizzle as unknown as {
  mapResultRow: (fields: unknown, row: unknown[], joins?: Record<string, boolean>) => Record<string, unknown>
}

const t = await buildTestApp()
afterAll(() => t.close())
const empresa = await makeEmpresa(t.db)
const casa = await makeVivienda(t.db, empresa.id, { nombre: 'Casa Filas' })
const conCasa = await makeUsuario(t.db, casa.id, { nombre: 'Rosa', apellidos: 'Filas' })
const sinCasa = await makeUsuario(t.db, null, { nombre: 'Nadia', apellidos: 'Filas' })

/** A select with whole tables, nested fields, SQL fields, timestamps and a left join that may find nothing. */
const query = () =>
  t.db
    .select({
      usuario: usuarios,
      vivienda: { id: viviendas.id, nombre: viviendas.nombre, creada: viviendas.createdAt },
      n: sql<number>`count(*) over ()`.mapWith(Number),
      texto: sql<string>`${usuarios.nombre} || ' ' || ${usuarios.apellidos}`,
    })
    .from(usuarios)
    .leftJoin(viviendas, eq(viviendas.id, usuarios.viviendaId))
    .where(sql`${usuarios.apellidos} = 'Filas'`)
    .orderBy(usuarios.id)

describe('selectRows: a list page mapped once per statement, as Drizzle maps it', () => {
  it('gives the very rows Drizzle gives: nested objects, decoded values, a missing left join as null', async () => {
    const ours = await selectRows(query())
    const theirs = await query()
    expect(ours).toEqual(theirs)
    expect(ours[0]).toMatchObject({ usuario: { id: conCasa.id }, vivienda: { id: casa.id, nombre: 'Casa Filas' } })
    expect(ours[0]?.usuario.createdAt).toBeInstanceOf(Date)
    expect(ours[0]?.n).toBe(ours.length)
    expect(ours.find((r) => r.usuario.id === sinCasa.id)?.vivienda).toBeNull()
  })

  it('maps raw rows exactly as mapResultRow, also a joined row whose every field is null', async () => {
    type Prepared = {
      client: { query: (c: unknown, p: unknown[]) => Promise<{ rows: unknown[][] }> }
      queryConfig: unknown
      params: unknown[]
      fields: Array<{ path: string[] }>
      joinsNotNullableMap: Record<string, boolean>
    }
    const prepared = (query() as unknown as { _prepare: () => Prepared })._prepare()
    const { rows } = await prepared.client.query(prepared.queryConfig, prepared.params)
    const joined = prepared.fields.flatMap((f, i) => (f.path[0] === 'vivienda' ? [i] : []))
    const emptied = rows.map((row) => row.map((v, i) => (joined.includes(i) ? null : v)))
    const map = rowMapper(prepared.fields as never, prepared.joinsNotNullableMap)
    expect(rows.length).toBeGreaterThanOrEqual(2)
    for (const row of [...rows, ...emptied]) {
      expect(map(row)).toEqual(mapResultRow(prepared.fields, row, prepared.joinsNotNullableMap))
    }
    expect(map(emptied[0] as unknown[]).vivienda).toBeNull()
  })

  it('with the check on (the API tests), a row our mapper gives differently throws', async () => {
    checkRowMapping(true)
    const spy = drizzle.Column.prototype as unknown as { mapFromDriverValue: (v: unknown) => unknown }
    const original = spy.mapFromDriverValue
    // A decoder that answers differently on each call: the two mappings of one row then differ.
    let calls = 0
    spy.mapFromDriverValue = function (this: unknown, v: unknown) {
      calls++
      return calls % 2 ? original.call(this, v) : `${String(original.call(this, v))}!`
    }
    try {
      await expect(selectRows(t.db.select({ nombre: usuarios.nombre }).from(usuarios).limit(1))).rejects.toThrow(
        /mapped differently/,
      )
    } finally {
      spy.mapFromDriverValue = original
    }
  })
})

describe('selectPage: the statement built once per shape, each call rendering its condition into it', () => {
  const build =
    (order: 'asc' | 'desc') => (c: SQL | undefined, l: number | drizzle.Placeholder, o: number | drizzle.Placeholder) =>
      t.db
        .select({ usuario: usuarios, vivienda: { id: viviendas.id, nombre: viviendas.nombre } })
        .from(usuarios)
        .leftJoin(viviendas, eq(viviendas.id, usuarios.viviendaId))
        .where(c)
        .orderBy(order === 'asc' ? asc(usuarios.nombre) : desc(usuarios.nombre), asc(usuarios.id))
        .limit(l)
        .offset(o)
  const conditions: Array<SQL | undefined> = [
    undefined,
    sql`${usuarios.apellidos} = ${'Filas'}`,
    and(like(usuarios.apellidos, 'Fil%'), sql`${usuarios.id} > ${0}`, sql`${usuarios.nombre} <> ${'x'}`),
  ]

  it('gives what Drizzle gives for each condition, order and page, the first page (no OFFSET) included', async () => {
    checkRowMapping(true)
    for (const order of ['asc', 'desc'] as const) {
      for (const condition of conditions) {
        for (const [limit, offset] of [
          [1, 0],
          [1, 1],
          [20, 0],
          [2, 1],
        ] as const) {
          const ours = await selectPage(t.db, `prueba:${order}`, build(order), condition, limit, offset)
          expect(ours).toEqual(await build(order)(condition, limit, offset))
        }
      }
    }
  })

  it('runs as Drizzle builds it a statement with parameters outside its condition and page', async () => {
    const withParam = (c: SQL | undefined, l: number | drizzle.Placeholder, o: number | drizzle.Placeholder) =>
      t.db
        .select({ id: usuarios.id, saludo: sql<string>`${'Hola '} || ${usuarios.nombre}` })
        .from(usuarios)
        .where(c)
        .orderBy(usuarios.id)
        .limit(l)
        .offset(o)
    const condition = sql`${usuarios.apellidos} = ${'Filas'}`
    expect(await selectPage(t.db, 'prueba:param', withParam, condition, 5, 0)).toEqual([
      { id: conCasa.id, saludo: 'Hola Rosa' },
      { id: sinCasa.id, saludo: 'Hola Nadia' },
    ])
  })

  it('with the check on, a template that does not match the statement Drizzle builds throws', async () => {
    // The same shape name for two different statements: the second call meets the first one's template.
    await selectPage(t.db, 'prueba:mal', build('asc'), conditions[1], 1, 0)
    await expect(selectPage(t.db, 'prueba:mal', build('desc'), conditions[1], 1, 0)).rejects.toThrow(/differs from Drizzle's/)
  })
})

describe('selectShaped: a statement built once per shape with its numbers as values, each call rendering its condition', () => {
  // A bounded scan in a CTE, a bound on its count and a page of it: the shape of a new search (usuarios.service.ts).
  const build = (
    c: SQL | undefined,
    v: { scan: number | drizzle.Placeholder; most: number | drizzle.Placeholder; limit: number | drizzle.Placeholder },
  ) => {
    const m = t.db.$with('m').as(t.db.select({ id: usuarios.id, nombre: usuarios.nombre }).from(usuarios).where(c).limit(v.scan))
    const n = t.db.$with('n').as(t.db.select({ total: sql<number>`count(*)::int`.as('total') }).from(m))
    return t.db
      .with(m, n)
      .select({ id: m.id, nombre: m.nombre, total: n.total })
      .from(m)
      .crossJoin(n)
      .where(sql`${n.total} <= ${v.most}`)
      .orderBy(m.nombre, m.id)
      .limit(v.limit)
  }

  it('gives what Drizzle gives, with the values in their places whatever the condition has', async () => {
    checkRowMapping(true)
    const conditions: Array<SQL | undefined> = [
      undefined,
      sql`${usuarios.apellidos} = ${'Filas'}`,
      and(like(usuarios.apellidos, 'Fil%'), sql`${usuarios.id} > ${0}`, sql`${usuarios.nombre} <> ${'x'}`),
    ]
    for (const condition of conditions) {
      for (const values of [
        { scan: 3, most: 2, limit: 1 },
        { scan: 10, most: 9, limit: 5 },
        { scan: 1, most: 0, limit: 5 },
      ]) {
        const ours = await selectShaped(t.db, 'prueba:shaped', build, condition, values)
        expect(ours).toEqual(await build(condition, values))
      }
    }
    // Built once and rendered into, not run as Drizzle builds it.
    expect(shapeTemplated('prueba:shaped', true)).toBe(true)
    expect(shapeTemplated('prueba:shaped', false)).toBe(true)
    expect(
      await selectShaped(t.db, 'prueba:shaped', build, sql`${usuarios.apellidos} = ${'Filas'}`, { scan: 3, most: 2, limit: 5 }),
    ).toEqual([
      { id: sinCasa.id, nombre: 'Nadia', total: 2 },
      { id: conCasa.id, nombre: 'Rosa', total: 2 },
    ])
  })

  it('run on a transaction, runs in it: on its connection, with the lock its statement takes held until it ends', async () => {
    const locked = (tx: DbOrTx) => (c: SQL | undefined) =>
      tx.select({ id: usuarios.id, pid: sql<number>`pg_backend_pid()` }).from(usuarios).where(c).for('share', { of: usuarios })
    await t.db.transaction(async (tx) => {
      const [row] = await selectShaped(tx, 'prueba:en-transaccion', locked(tx), sql`${usuarios.id} = ${conCasa.id}`, {})
      const [own] = ((await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: Array<{ pid: number }> }).rows
      expect(row?.pid).toBe(own?.pid)
      // Another connection cannot take the row for update while this transaction holds it shared.
      const other = await t.database.pool.connect()
      try {
        await expect(other.query('select id from usuarios where id = $1 for update nowait', [conCasa.id])).rejects.toMatchObject({
          code: '55P03',
        })
      } finally {
        other.release()
      }
    })
    expect(shapeTemplated('prueba:en-transaccion', true)).toBe(true)
  })

  it("renders a condition once for the page and its total's key, and leaves the kept rendering as it was", async () => {
    checkRowMapping(true)
    const condition = and(sql`${usuarios.apellidos} = ${'Filas'}`, sql`${usuarios.id} > ${0}`) as SQL
    const rendered = renderCondition(condition)
    expect(rendered).toMatchObject({ sql: '("usuarios"."apellidos" = $1 and "usuarios"."id" > $2)', params: ['Filas', 0] })
    // The same object for the same condition, a new one for another condition with the same text.
    expect(renderCondition(condition)).toBe(rendered)
    expect(renderCondition(and(sql`${usuarios.apellidos} = ${'Filas'}`, sql`${usuarios.id} > ${0}`) as SQL)).not.toBe(rendered)
    // A page and its total given the same condition, twice: the page's values are not added to the kept parameters.
    for (const values of [
      { scan: 10, most: 9, limit: 1 },
      { scan: 10, most: 9, limit: 5 },
    ]) {
      expect(await selectShaped(t.db, 'prueba:shaped', build, condition, values)).toEqual(await build(condition, values))
      expect(boundedTotalKey(usuarios, condition)).toBe(`total\u0000usuarios\u0000${rendered.sql}\u0000["Filas",0]`)
    }
    expect(rendered.params).toEqual(['Filas', 0])
  })

  it('runs as Drizzle builds it a statement with a parameter that is neither its condition nor a value', async () => {
    const withParam = (c: SQL | undefined, v: { limit: number | drizzle.Placeholder }) =>
      t.db
        .select({ id: usuarios.id, saludo: sql<string>`${'Hola '} || ${usuarios.nombre}` })
        .from(usuarios)
        .where(c)
        .orderBy(usuarios.id)
        .limit(v.limit)
    const condition = sql`${usuarios.apellidos} = ${'Filas'}`
    expect(await selectShaped(t.db, 'prueba:shaped-param', withParam, condition, { limit: 5 })).toEqual([
      { id: conCasa.id, saludo: 'Hola Rosa' },
      { id: sinCasa.id, saludo: 'Hola Nadia' },
    ])
    expect(shapeTemplated('prueba:shaped-param', true)).toBe(false)
  })
})

describe('preparedRows: a statement run as a named prepared statement, one name per text', () => {
  it("gives the rows db.execute gives, as arrays in column order, with the driver's own types (a timestamptz as a Date)", async () => {
    const statement = sql`select id, nombre, created_at from usuarios where apellidos = ${'Filas'} order by id`
    const ours = await preparedRows<[number, string, Date]>(t.db, 'prueba_filas', statement)
    const theirs = (
      (await t.db.execute(statement)) as unknown as { rows: Array<{ id: number; nombre: string; created_at: string }> }
    ).rows
    expect(ours).toEqual(theirs.map((r) => [r.id, r.nombre, new Date(r.created_at)]))
    expect(ours).toHaveLength(2)
    expect(ours[0]?.[2]).toBeInstanceOf(Date)
  })

  it('is prepared in PostgreSQL under its name, the same name for the same text and another for another text', async () => {
    // The statement sees itself: the driver prepares it on the connection before running it.
    const own = async (text: SQL) => (await preparedRows<[string]>(t.db, 'prueba_propia', text)).map(([name]) => ({ name }))
    const first = await own(sql`select name from pg_prepared_statements where name like ${'prueba_propia%'} order by name`)
    const again = await own(sql`select name from pg_prepared_statements where name like ${'prueba_propia%'} order by name`)
    const other = await own(sql`select name from pg_prepared_statements where name like ${'prueba_propia%'} order by name desc`)
    const name = first.map((r) => r.name).find((n) => n.startsWith('prueba_propia_'))
    expect(name).toBeDefined()
    expect(again.map((r) => r.name)).toContain(name)
    const others = other.map((r) => r.name).filter((n) => n !== name)
    expect(others.length).toBeGreaterThan(0)
  })
})

describe('isoInstant: a timestamptz as the text toISOString gives', () => {
  it('is the same text as the driver’s Date written out, microseconds cut as a Date cuts them', async () => {
    const instants = [
      '2026-10-01 10:00:00+00',
      '2026-03-29 01:59:59.999999+00',
      '2026-10-25 03:30:00.123456+02',
      '1999-12-31 23:59:59.0005+00',
      '2026-11-27 12:34:56.78-05',
    ]
    for (const instant of instants) {
      const [[text, date] = []] = await preparedRows<[string, Date]>(
        t.db,
        'prueba_iso',
        sql`select ${isoInstant(sql`${instant}::timestamptz`)} as text, ${instant}::timestamptz as date`,
      )
      expect(text, instant).toBe(date?.toISOString())
    }
  })
})
