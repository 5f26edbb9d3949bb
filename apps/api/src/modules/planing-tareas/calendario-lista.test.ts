import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp, type TestWorker } from '../../test/build-test-app'
import { makeEmpresa, makeUsuario, makeVivienda } from '../../test/factories'

/**
 * Migrations 0015 and 0016: each task's residents as the calendar shows them, kept beside the task by triggers on
 * the links, the residents, the homes and the tasks, whoever writes them; checked against the list read from those
 * tables (the view planing_calendario_listas).
 */
let t: TestApp
let empresa: { id: number }
let casa1: { id: number }
let casa2: { id: number }
let admin: TestWorker

beforeAll(async () => {
  t = await buildTestApp({ clock: { now: () => new Date('2026-03-10T10:00:00Z') } })
  empresa = await makeEmpresa(t.db)
  casa1 = await makeVivienda(t.db, empresa.id, { nombre: 'Casa Norte' })
  casa2 = await makeVivienda(t.db, empresa.id, { nombre: 'Casa Sur' })
  admin = await t.worker('ADMIN', [empresa.id])
})
afterAll(async () => {
  await t.close()
})

const rows = async <R>(statement: ReturnType<typeof sql>) => ((await t.db.execute(statement)) as unknown as { rows: R[] }).rows

/** Tasks whose kept list is not the one their links, residents and homes give now (none for a task for everyone). */
const stale = () =>
  rows<{ id: number }>(sql`
    select p.id from planing_tareas p left join planing_calendario_usuarios l on l.tarea_id = p.id
      left join planing_calendario_listas x on x.tarea_id = p.id
     where l.usuarios::text is distinct from x.usuarios::text`)

const kept = async (id: number) =>
  (await rows<{ usuarios: unknown }>(sql`select usuarios from planing_calendario_usuarios where tarea_id = ${id}`))[0]?.usuarios

const create = async (usuarioIds: number[] | 'all') => {
  const res = await t.as(admin, {
    method: 'POST',
    url: '/api/planing-tareas',
    payload: {
      titulo: 'Paseo',
      descripcion: 'Por el parque',
      fecha: '2026-03-12',
      hora: '10:00',
      notificable: false,
      usuarioIds,
      empresaId: empresa.id,
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id as number
}
const patch = (id: number, payload: Record<string, unknown>) =>
  t.as(admin, { method: 'PATCH', url: `/api/planing-tareas/${id}`, payload })

/** The calendar's residents and homes of a task. */
const shown = async (id: number) => {
  const res = await t.as(admin, {
    method: 'GET',
    url: `/api/planing-tareas/calendario?desde=2026-03-09&hasta=2026-03-15&porDia=20`,
  })
  expect(res.statusCode, res.body).toBe(200)
  const tarea = (res.json() as Array<{ tareas: Array<{ id: number; usuarios: unknown; viviendas: unknown }> }>)
    .flatMap((d) => d.tareas)
    .find((x) => x.id === id)
  return { usuarios: tarea?.usuarios, viviendas: tarea?.viviendas }
}

/** A promise and what settles it, to hold a transaction open until the test says. */
function signal() {
  let fire = () => {}
  const done = new Promise<void>((resolve) => {
    fire = resolve
  })
  return { done, fire }
}

/**
 * A statement run once, now. A Drizzle query runs each time it is awaited: awaiting it after `stillWaiting` did
 * would run it a second time, and a first run that failed (a deadlock) would go unseen.
 */
const started = (statement: ReturnType<typeof sql>) => Promise.resolve(t.db.execute(statement))

/** Whether `work` is still waiting (for a lock) after 300 ms. */
const stillWaiting = (work: Promise<unknown>) =>
  Promise.race([work.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300))])

describe("the calendar's residents kept beside each task (migrations 0015, 0016)", () => {
  it('follow every change to the task, its residents and their homes, through the API and straight SQL', async () => {
    const ana = await makeUsuario(t.db, casa1.id, { nombre: 'Ana', apellidos: 'Ruiz' })
    const blas = await makeUsuario(t.db, casa1.id, { nombre: 'Blas', apellidos: 'Soto' })
    const carla = await makeUsuario(t.db, casa2.id, { nombre: 'Carla', apellidos: 'Vega' })
    const id = await create([blas.id, ana.id])
    expect(await kept(id)).toEqual([
      [ana.id, 'Ana', 'Ruiz', casa1.id, 'Casa Norte'],
      [blas.id, 'Blas', 'Soto', casa1.id, 'Casa Norte'],
    ])
    expect(await patch(id, { usuarioIds: [blas.id, carla.id] })).toMatchObject({ statusCode: 200 })
    expect(await stale()).toEqual([])
    expect(await shown(id)).toEqual({
      usuarios: [
        { id: blas.id, nombre: 'Blas', apellidos: 'Soto' },
        { id: carla.id, nombre: 'Carla', apellidos: 'Vega' },
      ],
      viviendas: [
        { id: casa1.id, nombre: 'Casa Norte' },
        { id: casa2.id, nombre: 'Casa Sur' },
      ],
    })
    // A resident renamed and moved, a home renamed (also in case only, which leaves its sort key as it was).
    await t.db.execute(sql`update usuarios set nombre = 'Blasa' where id = ${blas.id}`)
    expect(await stale()).toEqual([])
    await t.db.execute(sql`update usuarios set vivienda_id = ${casa2.id} where id = ${blas.id}`)
    expect(await stale()).toEqual([])
    await t.db.execute(sql`update viviendas set nombre = 'Casa del Sur' where id = ${casa2.id}`)
    expect(await stale()).toEqual([])
    await t.db.execute(sql`update viviendas set nombre = 'CASA DEL SUR' where id = ${casa2.id}`)
    expect(await stale()).toEqual([])
    expect(await shown(id)).toEqual({
      usuarios: [
        { id: blas.id, nombre: 'Blasa', apellidos: 'Soto' },
        { id: carla.id, nombre: 'Carla', apellidos: 'Vega' },
      ],
      viviendas: [{ id: casa2.id, nombre: 'CASA DEL SUR' }],
    })
    // For everyone: no list kept (the calendar names no one); then for one resident again.
    expect(await patch(id, { usuarioIds: 'all' })).toMatchObject({ statusCode: 200 })
    expect(await kept(id)).toBeUndefined()
    expect(await shown(id)).toEqual({ usuarios: [], viviendas: [] })
    expect(await patch(id, { usuarioIds: [carla.id] })).toMatchObject({ statusCode: 200 })
    expect(await kept(id)).toEqual([[carla.id, 'Carla', 'Vega', casa2.id, 'CASA DEL SUR']])
    // Its only resident deleted: the task has none, and keeps none.
    expect((await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${carla.id}` })).statusCode).toBe(204)
    expect(await kept(id)).toBeUndefined()
    expect(await stale()).toEqual([])
    // The task deleted: its row goes with it.
    const other = await create([ana.id])
    expect((await t.as(admin, { method: 'DELETE', url: `/api/planing-tareas/${other}` })).statusCode).toBe(204)
    expect(await rows(sql`select 1 from planing_calendario_usuarios where tarea_id = ${other}`)).toEqual([])
    expect(await stale()).toEqual([])
  })

  it('a resident renamed while being added to a task: the edit waits for the rename and keeps the new name', async () => {
    const dora = await makeUsuario(t.db, casa1.id, { nombre: 'Dora', apellidos: 'Lis' })
    const eva = await makeUsuario(t.db, casa1.id, { nombre: 'Eva', apellidos: 'Mas' })
    const id = await create([eva.id])
    const [renamed, release] = [signal(), signal()]
    const rename = t.db.transaction(async (tx) => {
      await tx.execute(sql`update usuarios set nombre = 'Dorotea' where id = ${dora.id}`)
      renamed.fire()
      await release.done
    })
    await renamed.done
    const edit = patch(id, { usuarioIds: [dora.id, eva.id] })
    // The edit takes the resident shared: it waits for the rename, uncommitted, instead of reading the old name.
    expect(await stillWaiting(edit)).toBe(true)
    release.fire()
    await rename
    expect((await edit).statusCode).toBe(200)
    expect(await kept(id)).toEqual([
      [dora.id, 'Dorotea', 'Lis', casa1.id, 'Casa Norte'],
      [eva.id, 'Eva', 'Mas', casa1.id, 'Casa Norte'],
    ])
  })

  it('a task edited while a resident is being added is renamed: the rename waits, then rewrites the list', async () => {
    const fede = await makeUsuario(t.db, casa1.id, { nombre: 'Fede', apellidos: 'Gil' })
    const id = await create([fede.id])
    const gema = await makeUsuario(t.db, casa2.id, { nombre: 'Gema', apellidos: 'Paz' })
    const [linked, release] = [signal(), signal()]
    const edit = t.db.transaction(async (tx) => {
      await tx.execute(sql`update planing_tareas set titulo = 'Paseo largo' where id = ${id}`)
      await tx.execute(sql`insert into planing_tarea_usuarios (tarea_id, usuario_id) values (${id}, ${gema.id})`)
      linked.fire()
      await release.done
    })
    await linked.done
    const rename = started(sql`update usuarios set apellidos = 'Paz Ruiz' where id = ${gema.id}`)
    expect(await stillWaiting(rename)).toBe(true)
    release.fire()
    await edit
    await rename
    expect(await kept(id)).toEqual([
      [fede.id, 'Fede', 'Gil', casa1.id, 'Casa Norte'],
      [gema.id, 'Gema', 'Paz Ruiz', casa2.id, expect.any(String)],
    ])
    expect(await stale()).toEqual([])
  })

  it("a home renamed while a task's edit holds one of its residents: the rename waits for it, in id order, no deadlock", async () => {
    const casa = await makeVivienda(t.db, empresa.id, { nombre: 'Casa Este' })
    const otra = await makeUsuario(t.db, casa2.id, { nombre: 'Hugo', apellidos: 'Nieto' })
    const primera = await makeUsuario(t.db, casa.id, { nombre: 'Irene', apellidos: 'Lago' })
    const segunda = await makeUsuario(t.db, casa.id, { nombre: 'Julia', apellidos: 'Mora' })
    // The first resident's row rewritten (its home away and back, so the indexes point at the new row too) until it
    // lies after the second's: the home's rename, left to itself, would update the second first.
    const order = () =>
      rows<{ id: number }>(sql`select id from usuarios where vivienda_id = ${casa.id} order by ctid`).then((r) =>
        r.map((x) => x.id),
      )
    for (let i = 0; i < 20 && (await order())[0] !== segunda.id; i++) {
      await t.db.execute(sql`update usuarios set vivienda_id = ${casa2.id} where id = ${primera.id}`)
      await t.db.execute(sql`update usuarios set vivienda_id = ${casa.id} where id = ${primera.id}`)
    }
    expect(await order()).toEqual([segunda.id, primera.id])
    const id = await create([otra.id])
    const [first, release] = [signal(), signal()]
    let secondWaited = 0
    // A task's residents added one statement at a time: each link's trigger takes its resident shared.
    const edit = t.db.transaction(async (tx) => {
      await tx.execute(sql`insert into planing_tarea_usuarios (tarea_id, usuario_id) values (${id}, ${primera.id})`)
      first.fire()
      await release.done
      const since = Date.now()
      await tx.execute(sql`insert into planing_tarea_usuarios (tarea_id, usuario_id) values (${id}, ${segunda.id})`)
      secondWaited = Date.now() - since
    })
    await first.done
    const rename = started(sql`update viviendas set nombre = 'Casa Levante' where id = ${casa.id}`)
    // The rename locks the home's residents in id order before it changes them: it waits at the first one, held by
    // the edit, without holding the second (updated first by the sort key's trigger of 0011, it would: a deadlock).
    expect(await stillWaiting(rename)).toBe(true)
    release.fire()
    await edit
    await rename
    expect(secondWaited).toBeLessThan(500)
    expect(await kept(id)).toEqual([
      [otra.id, 'Hugo', 'Nieto', casa2.id, expect.any(String)],
      [primera.id, 'Irene', 'Lago', casa.id, 'Casa Levante'],
      [segunda.id, 'Julia', 'Mora', casa.id, 'Casa Levante'],
    ])
    expect(await stale()).toEqual([])
  })

  it('edits, renames, moves and home renames at once: no deadlock, no error, every list as its tables say', async () => {
    const people = await Promise.all(
      Array.from({ length: 6 }, (_, i) => makeUsuario(t.db, i % 2 ? casa1.id : casa2.id, { nombre: `Persona${i}` })),
    )
    const ids = await Promise.all([0, 1, 2].map((i) => create([people[i]?.id as number, people[i + 3]?.id as number])))
    for (let round = 0; round < 4; round++) {
      const pick = (k: number) => people[(round + k) % people.length]?.id as number
      const results = await Promise.all([
        ...ids.map((id, k) => patch(id, { usuarioIds: [pick(k), pick(k + 2), pick(k + 4)] }).then((r) => r.statusCode)),
        ...people.map((p, k) =>
          t.db.execute(sql`update usuarios set nombre = ${`Persona${k}-${round}`} where id = ${p.id}`).then(() => 200),
        ),
        t.db
          .execute(sql`update usuarios set vivienda_id = ${round % 2 ? casa2.id : casa1.id} where id = ${pick(1)}`)
          .then(() => 200),
        t.db.execute(sql`update viviendas set nombre = ${`Casa Norte ${round}`} where id = ${casa1.id}`).then(() => 200),
        t.db.execute(sql`update viviendas set nombre = ${`Casa Sur ${round}`} where id = ${casa2.id}`).then(() => 200),
      ])
      expect(results.every((s) => s === 200)).toBe(true)
      expect(await stale()).toEqual([])
    }
  })
})
