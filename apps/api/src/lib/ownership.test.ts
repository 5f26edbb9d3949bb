import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { empresas, logs, presupuestos, viviendas } from '../db/schema'
import { buildTestApp, type TestApp, type TestWorker } from '../test/build-test-app'
import { makeEmpresa, makeVivienda } from '../test/factories'

/**
 * What a record owns is read from the foreign keys (lib/ownership.ts): a table added by any later migration
 * is covered without being listed anywhere. These tests add tables the way a migration would, then delete.
 */
let t: TestApp
let superadmin: TestWorker

beforeAll(async () => {
  t = await buildTestApp()
  superadmin = await t.worker('SUPERADMIN', [])
  await t.db.execute(sql`
    create table proveedores_prueba (id serial primary key, nombre text not null,
      empresa_id integer not null references empresas(id));
    create table notas_empresa_prueba (id serial primary key, texto text not null,
      empresa_id integer not null references empresas(id) on delete cascade);
    create table archivos_prueba (id serial primary key,
      empresa_id integer references empresas(id) on delete set null)`)
})
afterAll(async () => {
  await t.close()
})

const borrar = (id: number) => t.as(superadmin, { method: 'DELETE', url: `/api/empresas/${id}` })
const existe = async (id: number) => (await t.db.select().from(empresas).where(eq(empresas.id, id))).length === 1
const ultimoLog = async () => (await t.db.select().from(logs).orderBy(desc(logs.id)).limit(1))[0]

describe('a table added by a migration', () => {
  it('with a plain foreign key blocks the deletion of its parent, and the refusal names it', async () => {
    const e = await makeEmpresa(t.db)
    await t.db.execute(sql`insert into proveedores_prueba (nombre, empresa_id) values ('Fontanería', ${e.id})`)
    const before = await ultimoLog()
    const res = await borrar(e.id)
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe(
      'No se puede eliminar la empresa: todavía tiene 1 registro de proveedores_prueba. Elimínalos o trasládalos antes a otra empresa.',
    )
    expect(await existe(e.id)).toBe(true)
    expect((await ultimoLog())?.id).toBe(before?.id)
  })

  it('with ON DELETE CASCADE is a part: it goes with its parent and its rows are kept in the log entry', async () => {
    const e = await makeEmpresa(t.db, { nombre: 'Empresa Con Notas' })
    await t.db.execute(
      sql`insert into notas_empresa_prueba (texto, empresa_id) values ('Primera', ${e.id}), ('Segunda', ${e.id})`,
    )
    expect((await borrar(e.id)).statusCode).toBe(204)
    expect(await existe(e.id)).toBe(false)
    const left = await t.db.execute(sql`select count(*)::int as n from notas_empresa_prueba where empresa_id = ${e.id}`)
    expect((left as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0)
    const log = await ultimoLog()
    expect(log).toMatchObject({ accion: 'Eliminar empresa', descripcion: 'Empresa eliminada: Empresa Con Notas' })
    expect(log?.datos).toMatchObject({
      antes: {
        nombre: 'Empresa Con Notas',
        notasEmpresaPrueba: [
          { texto: 'Primera', empresaId: e.id },
          { texto: 'Segunda', empresaId: e.id },
        ],
      },
    })
  })

  it('with ON DELETE SET NULL is a loose reference: the row survives its parent', async () => {
    const e = await makeEmpresa(t.db)
    await t.db.execute(sql`insert into archivos_prueba (empresa_id) values (${e.id})`)
    expect((await borrar(e.id)).statusCode).toBe(204)
    const left = await t.db.execute(sql`select count(*)::int as n from archivos_prueba where empresa_id is null`)
    expect((left as unknown as { rows: { n: number }[] }).rows[0]?.n).toBeGreaterThan(0)
  })
})

describe('homes', () => {
  it('a home with a budget cannot be deleted: the budget never vanishes with it', async () => {
    const e = await makeEmpresa(t.db)
    const v = await makeVivienda(t.db, e.id)
    await t.db.insert(presupuestos).values({ descripcion: 'Pintura del salón', precio: '120.00', viviendaId: v.id })
    const res = await t.as(superadmin, { method: 'DELETE', url: `/api/viviendas/${v.id}` })
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe(
      'No se puede eliminar la vivienda: todavía tiene 1 presupuesto. Elimínalos o trasládalos antes a otra vivienda.',
    )
    expect(await t.db.select().from(viviendas).where(eq(viviendas.id, v.id))).toHaveLength(1)
    expect(await t.db.select().from(presupuestos).where(eq(presupuestos.viviendaId, v.id))).toHaveLength(1)
  })

  it('the database itself refuses to drop a dependent row, whoever deletes', async () => {
    const e = await makeEmpresa(t.db)
    const v = await makeVivienda(t.db, e.id)
    await t.db.insert(presupuestos).values({ descripcion: 'Caldera nueva', precio: '900.00', viviendaId: v.id })
    await expect(t.db.delete(viviendas).where(eq(viviendas.id, v.id))).rejects.toThrow()
    await expect(t.db.delete(empresas).where(eq(empresas.id, e.id))).rejects.toThrow()
  })
})
