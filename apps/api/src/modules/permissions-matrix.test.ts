import type { Action, Resource, Rol } from '@vb/shared'
import { eq } from 'drizzle-orm'
import type { InjectOptions } from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { logs, notificaciones, trabajadorEmpresas, uploads } from '../db/schema'
import { samplePng } from '../lib/sample-files'
import { resourceRules } from '../lib/scope'
import type { TestWorker } from '../test/build-test-app'
import {
  makeContacto,
  makeDocumento,
  makeEmpresa,
  makeMovimientoCaja,
  makeNif,
  makePlaningTarea,
  makePresupuesto,
  makeTareaTrabajador,
  makeUsuario,
  makeVivienda,
} from '../test/factories'
import { multipart } from '../test/files'
import { openApiContract } from '../test/openapi'
import { testScenario } from '../test/scenario'
import { snapshot } from '../test/snapshot'

/**
 * SPEC §6 and DECISIONS P1-P3 as a table: every endpoint of companies, homes, residents, contacts, resident
 * documents, cash movements, calendar tasks, worker tasks, budgets and the files attached to them, workers and
 * the access log, for each
 * role, on a record of the worker's own company ('propia') and of another company ('ajena'). Each cell is
 * the exact status; for lists, whether the record is in the answer. Every cell works on fresh records.
 */

type Ambito = 'propia' | 'ajena'
/** A status code, or for a list: 200 with the record ('ve') or 200 without it ('no ve'). */
type Outcome = number | 've' | 'no ve'
type Row = Record<Rol, [propia: Outcome, ajena: Outcome]>

interface Ctx {
  /** The company of the record (or the one the body points at). */
  empresaId: number
  /** Another home of the worker's own company. */
  ownHomeId: number
  worker: TestWorker
}
interface Case {
  endpoint: string
  prepare(ctx: Ctx): Promise<{ request: InjectOptions; listed?: number }>
  expected: Row
  /** For 've' / 'no ve' on an answer that is not a list of records: whether it shows the prepared record. */
  seen?: (body: unknown) => boolean
}

const scenario = await testScenario({
  empresaA: { nombre: 'Empresa Propia' },
  empresaB: { nombre: 'Empresa Ajena' },
  viviendaA: {},
  workers: {
    SUPERADMIN: { rol: 'SUPERADMIN', of: ['A'] },
    ADMIN: { rol: 'ADMIN', of: ['A'] },
    EMPLEADO: { rol: 'EMPLEADO', of: ['A'] },
  },
})
const { t } = scenario
const empresaPropia = scenario.empresaA.id
const empresaAjena = scenario.empresaB.id
const ownHomeId = scenario.viviendaA.id
const workers: Record<Rol, TestWorker> = { SUPERADMIN: scenario.SUPERADMIN, ADMIN: scenario.ADMIN, EMPLEADO: scenario.EMPLEADO }
/** DECISIONS S2: a deactivated worker's token opens nothing, whatever its role was. */
const deactivated = await t.worker('SUPERADMIN', [empresaPropia], { activo: false })
/** Every answer, accepted or refused, must be one /api/openapi.json declares for its operation. */
const contract = await openApiContract(t.app)
const operationOf = (endpoint: string) => {
  const [method, url] = endpoint.split(' ') as [string, string]
  return [method, url.split('?')[0] as string] as const
}
/** Refused cells whose tables were compared before and after the call. */
let unchangedAfterRefusal = 0

/** A company of its own for the cell, linked to the worker when the cell is 'propia'. */
async function freshEmpresa(ctx: Ctx): Promise<number> {
  const e = await makeEmpresa(t.db)
  if (ctx.empresaId === empresaPropia)
    await t.db.insert(trabajadorEmpresas).values({ trabajadorId: ctx.worker.id, empresaId: e.id })
  return e.id
}
const home = async (ctx: Ctx) => (await makeVivienda(t.db, ctx.empresaId)).id
const resident = async (ctx: Ctx) => makeUsuario(t.db, await home(ctx))
const residentBody = (viviendaId: number) => ({ nombre: 'Rosa', apellidos: 'Vidal Soler', nif: makeNif(), viviendaId })
const contactBody = (empresaId: number) => ({
  nombreComercial: 'Proveedor Matriz',
  agente: 'Agente Matriz',
  correo: 'matriz@prueba.es',
  telefono: '600 111 222',
  empresaId,
})

const documento = async (ctx: Ctx) => makeDocumento(t.db, (await resident(ctx)).id)
const presupuesto = async (ctx: Ctx) => makePresupuesto(t.db, await home(ctx))
const planing = async (ctx: Ctx) => {
  const u = await resident(ctx)
  return makePlaningTarea(t.db, [u.id], { empresaId: ctx.empresaId })
}
/** A task of an EMPLEADO colleague of the cell's company, in a home of that company. */
const tareaDeColega = async (ctx: Ctx) => {
  const colega = await t.worker('EMPLEADO', [ctx.empresaId])
  return makeTareaTrabajador(t.db, colega.id, await home(ctx))
}
/** SPEC §6: a worker task is seen by SUPERADMIN, by an ADMIN of its company, and by its own worker only. */
const TASK = (status: number): Row => ({ SUPERADMIN: [status, status], ADMIN: [status, 404], EMPLEADO: [404, 404] })
const movimiento = async (ctx: Ctx) => makeMovimientoCaja(t.db, (await resident(ctx)).id)
/** A file the worker uploaded, attached (by the database, as a colleague would) to a record of the cell's company. */
async function attachedFile(ctx: Ctx, to: 'documento' | 'movimiento' | 'presupuesto'): Promise<string> {
  const res = await t.as(ctx.worker, {
    method: 'POST',
    url: '/api/uploads',
    ...multipart({ filename: 'f.png', content: samplePng() }),
  })
  const { id } = res.json() as { id: string }
  const record =
    to === 'documento'
      ? { documentoId: (await documento(ctx)).id }
      : to === 'movimiento'
        ? { movimientoId: (await movimiento(ctx)).id }
        : { presupuestoId: (await presupuesto(ctx)).id }
  await t.db.update(uploads).set(record).where(eq(uploads.id, id))
  return id
}

/** A worker of the cell's company. */
const staff = (ctx: Ctx) => t.worker('EMPLEADO', [ctx.empresaId])
const workerBody = (empresaId: number) => ({
  nombre: 'Marta',
  apellidos: 'Matriz Gil',
  email: `matriz.${Math.random().toString(36).slice(2)}@prueba.es`,
  nif: '12345678Z',
  rol: 'EMPLEADO',
  empresaIds: [empresaId],
})
/** A log entry, the newest of all, written by a worker of the cell's company. */
async function logEntry(ctx: Ctx): Promise<number> {
  const w = await staff(ctx)
  const [row] = await t.db
    .insert(logs)
    .values({ trabajadorId: w.id, accion: 'Entrada', descripcion: 'matriz', url: '/x', fecha: new Date('2100-01-01T00:00:00Z') })
    .returning()
  return row!.id
}

const ALL_SEE: Row = { SUPERADMIN: ['ve', 've'], ADMIN: ['ve', 'no ve'], EMPLEADO: ['ve', 'no ve'] }
const OWN_ONLY = (status: number): Row => ({ SUPERADMIN: [status, status], ADMIN: [status, 404], EMPLEADO: [status, 404] })
const ADMINS_OWN = (status: number): Row => ({ SUPERADMIN: [status, status], ADMIN: [status, 404], EMPLEADO: [403, 403] })

const cases: Case[] = [
  // Companies (SPEC §6: SUPERADMIN all; ADMIN modifies own; EMPLEADO no actions).
  {
    endpoint: 'GET /api/empresas',
    prepare: async (ctx) => ({ request: { method: 'GET', url: '/api/empresas' }, listed: await freshEmpresa(ctx) }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/empresas/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/empresas/${await freshEmpresa(ctx)}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/empresas',
    prepare: async () => ({ request: { method: 'POST', url: '/api/empresas', payload: { nombre: 'Empresa Matriz' } } }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [403, 403], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'PATCH /api/empresas/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/empresas/${await freshEmpresa(ctx)}`, payload: { nombre: 'Empresa Renombrada' } },
    }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 404], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'DELETE /api/empresas/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/empresas/${await freshEmpresa(ctx)}` } }),
    expected: { SUPERADMIN: [204, 204], ADMIN: [403, 403], EMPLEADO: [403, 403] },
  },

  // Homes (SPEC §6; DECISIONS P2: delete is SUPERADMIN only).
  {
    endpoint: 'GET /api/viviendas',
    prepare: async (ctx) => ({ request: { method: 'GET', url: '/api/viviendas' }, listed: await home(ctx) }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/viviendas/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/viviendas/${await home(ctx)}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/viviendas',
    prepare: async (ctx) => ({
      request: { method: 'POST', url: '/api/viviendas', payload: { nombre: 'Calle Matriz 1', empresaId: ctx.empresaId } },
    }),
    // Another company's id in a body is answered like a missing one (400 on the field): nothing tells it exists.
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 400], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'PATCH /api/viviendas/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/viviendas/${await home(ctx)}`, payload: { nombre: 'Calle Matriz 2' } },
    }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 404], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'PATCH /api/viviendas/:id {empresaId: destino}',
    prepare: async (ctx) => ({
      request: {
        method: 'PATCH',
        url: `/api/viviendas/${(await makeVivienda(t.db, empresaPropia)).id}`,
        payload: { empresaId: ctx.empresaId },
      },
    }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 400], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'DELETE /api/viviendas/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/viviendas/${await home(ctx)}` } }),
    expected: { SUPERADMIN: [204, 204], ADMIN: [403, 403], EMPLEADO: [403, 403] },
  },

  // Residents (SPEC §6: every role creates, edits and deletes within its companies).
  {
    endpoint: 'GET /api/usuarios',
    prepare: async (ctx) => ({ request: { method: 'GET', url: '/api/usuarios' }, listed: (await resident(ctx)).id }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/usuarios/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/usuarios/${(await resident(ctx)).id}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/usuarios',
    prepare: async (ctx) => ({ request: { method: 'POST', url: '/api/usuarios', payload: residentBody(await home(ctx)) } }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 403], EMPLEADO: [201, 403] },
  },
  {
    endpoint: 'PATCH /api/usuarios/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/usuarios/${(await resident(ctx)).id}`, payload: { nombre: 'Renombrado' } },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'PATCH /api/usuarios/:id {viviendaId: destino}',
    prepare: async (ctx) => ({
      request: {
        method: 'PATCH',
        url: `/api/usuarios/${(await makeUsuario(t.db, ctx.ownHomeId)).id}`,
        payload: { viviendaId: await home(ctx) },
      },
    }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 403], EMPLEADO: [200, 403] },
  },
  {
    endpoint: 'DELETE /api/usuarios/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/usuarios/${(await resident(ctx)).id}` } }),
    expected: OWN_ONLY(204),
  },
  {
    endpoint: 'POST /api/usuarios/:id/viviendas/:viviendaId',
    prepare: async (ctx) => ({
      request: { method: 'POST', url: `/api/usuarios/${(await resident(ctx)).id}/viviendas/${await home(ctx)}` },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/usuarios/:id/viviendas/:viviendaId (destino)',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: `/api/usuarios/${(await makeUsuario(t.db, ctx.ownHomeId)).id}/viviendas/${await home(ctx)}`,
      },
    }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 403], EMPLEADO: [200, 403] },
  },
  {
    endpoint: 'DELETE /api/usuarios/:id/viviendas/:viviendaId',
    prepare: async (ctx) => {
      const u = await resident(ctx)
      return { request: { method: 'DELETE', url: `/api/usuarios/${u.id}/viviendas/${u.viviendaId}` } }
    },
    // Only a SUPERADMIN sees a resident without a home, so only it may leave one so.
    expected: { SUPERADMIN: [200, 200], ADMIN: [409, 404], EMPLEADO: [409, 404] },
  },

  // Contacts (DECISIONS P1: contacts of the worker's companies).
  {
    endpoint: 'GET /api/contactos',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/contactos' },
      listed: (await makeContacto(t.db, ctx.empresaId)).id,
    }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/contactos/:id',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: `/api/contactos/${(await makeContacto(t.db, ctx.empresaId)).id}` },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/contactos',
    prepare: async (ctx) => ({ request: { method: 'POST', url: '/api/contactos', payload: contactBody(ctx.empresaId) } }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 400], EMPLEADO: [201, 400] },
  },
  {
    endpoint: 'PATCH /api/contactos/:id',
    prepare: async (ctx) => ({
      request: {
        method: 'PATCH',
        url: `/api/contactos/${(await makeContacto(t.db, ctx.empresaId)).id}`,
        payload: { agente: 'Agente Nuevo' },
      },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'DELETE /api/contactos/:id',
    prepare: async (ctx) => ({
      request: { method: 'DELETE', url: `/api/contactos/${(await makeContacto(t.db, ctx.empresaId)).id}` },
    }),
    expected: OWN_ONLY(204),
  },

  // Resident header by NIF (SPEC §2.14, §2.15): any case; another company's resident is 404.
  {
    endpoint: 'GET /api/usuarios/nif/:nif',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/usuarios/nif/${(await resident(ctx)).nif.toLowerCase()}` } }),
    expected: OWN_ONLY(200),
  },

  // Resident documents (DECISIONS P1: the documents of residents of the worker's companies).
  {
    endpoint: 'GET /api/documentos-usuario',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/documentos-usuario?pageSize=100' },
      listed: (await documento(ctx)).id,
    }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/documentos-usuario?nif=',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/documentos-usuario?nif=${(await resident(ctx)).nif}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'GET /api/documentos-usuario/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/documentos-usuario/${(await documento(ctx)).id}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/documentos-usuario',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: '/api/documentos-usuario',
        payload: {
          titulo: 'Informe',
          archivoUrl: 'https://e.es/i.pdf',
          fecha: '2026-11-20',
          usuarioId: (await resident(ctx)).id,
        },
      },
    }),
    expected: OWN_ONLY(201),
  },
  {
    endpoint: 'PATCH /api/documentos-usuario/:id',
    prepare: async (ctx) => ({
      request: {
        method: 'PATCH',
        url: `/api/documentos-usuario/${(await documento(ctx)).id}`,
        payload: { titulo: 'Renombrado' },
      },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'DELETE /api/documentos-usuario/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/documentos-usuario/${(await documento(ctx)).id}` } }),
    expected: OWN_ONLY(204),
  },

  // Cash movements (DECISIONS P1, A6).
  {
    endpoint: 'GET /api/caja-usuario',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/caja-usuario?pageSize=100' },
      listed: (await movimiento(ctx)).id,
    }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/caja-usuario?nif=',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/caja-usuario?nif=${(await resident(ctx)).nif}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'GET /api/caja-usuario/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/caja-usuario/${(await movimiento(ctx)).id}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'GET /api/caja-usuario/extracto',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/caja-usuario/extracto?nif=${(await resident(ctx)).nif}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/caja-usuario',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: '/api/caja-usuario',
        payload: { concepto: 'Farmacia', cantidad: '-3,20', fecha: '2026-11-20', usuarioId: (await resident(ctx)).id },
      },
    }),
    expected: OWN_ONLY(201),
  },
  {
    endpoint: 'PATCH /api/caja-usuario/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/caja-usuario/${(await movimiento(ctx)).id}`, payload: { cantidad: '7,10' } },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'DELETE /api/caja-usuario/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/caja-usuario/${(await movimiento(ctx)).id}` } }),
    expected: OWN_ONLY(204),
  },

  // Workers (SPEC §6, DECISIONS P3): ADMIN and SUPERADMIN; ADMIN within its companies.
  {
    endpoint: 'GET /api/trabajadores',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/trabajadores?pageSize=100' },
      listed: (await staff(ctx)).id,
    }),
    expected: { SUPERADMIN: ['ve', 've'], ADMIN: ['ve', 'no ve'], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'GET /api/trabajadores/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/trabajadores/${(await staff(ctx)).id}` } }),
    expected: ADMINS_OWN(200),
  },
  {
    endpoint: 'POST /api/trabajadores',
    prepare: async (ctx) => ({ request: { method: 'POST', url: '/api/trabajadores', payload: workerBody(ctx.empresaId) } }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 403], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'PATCH /api/trabajadores/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/trabajadores/${(await staff(ctx)).id}`, payload: { apellidos: 'Renombrado' } },
    }),
    expected: ADMINS_OWN(200),
  },
  {
    endpoint: 'DELETE /api/trabajadores/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/trabajadores/${(await staff(ctx)).id}` } }),
    expected: ADMINS_OWN(204),
  },
  {
    endpoint: 'POST /api/trabajadores/:id/restablecer-password',
    prepare: async (ctx) => ({
      request: { method: 'POST', url: `/api/trabajadores/${(await staff(ctx)).id}/restablecer-password` },
    }),
    expected: ADMINS_OWN(200),
  },
  {
    endpoint: 'POST /api/trabajadores/:id/empresas/:empresaId',
    prepare: async (ctx) => ({
      request: { method: 'POST', url: `/api/trabajadores/${(await staff(ctx)).id}/empresas/${empresaPropia}` },
    }),
    expected: ADMINS_OWN(200),
  },
  {
    endpoint: 'POST /api/trabajadores/:id/empresas/:empresaId (destino)',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: `/api/trabajadores/${(await staff({ ...ctx, empresaId: empresaPropia })).id}/empresas/${await freshEmpresa(ctx)}`,
      },
    }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 403], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'DELETE /api/trabajadores/:id/empresas/:empresaId',
    prepare: async (ctx) => ({
      request: { method: 'DELETE', url: `/api/trabajadores/${(await staff(ctx)).id}/empresas/${ctx.empresaId}` },
    }),
    expected: ADMINS_OWN(200),
  },

  // The access log (SPEC §6, DECISIONS P1, L1): read by ADMIN (its companies' workers) and SUPERADMIN.
  {
    endpoint: 'GET /api/logs',
    prepare: async (ctx) => ({ request: { method: 'GET', url: '/api/logs?pageSize=100' }, listed: await logEntry(ctx) }),
    expected: { SUPERADMIN: ['ve', 've'], ADMIN: ['ve', 'no ve'], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'GET /api/logs/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/logs/${await logEntry(ctx)}` } }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 404], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'GET /api/logs/csv',
    prepare: async (ctx) => {
      const id = await logEntry(ctx)
      return { request: { method: 'GET', url: `/api/logs/csv?q=${encodeURIComponent(`matriz ${id}`)}` } }
    },
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 200], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'POST /api/logs',
    prepare: async (ctx) => ({
      request: { method: 'POST', url: '/api/logs', payload: { accion: 'Abrir extracto', viviendaId: await home(ctx) } },
    }),
    expected: OWN_ONLY(201),
  },

  // Calendar tasks (DECISIONS D4, P1: tasks of the companies' residents).
  {
    endpoint: 'GET /api/planing-tareas',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/planing-tareas?pageSize=100&desde=2026-02-01&hasta=2026-02-01' },
      listed: (await planing(ctx)).id,
    }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/planing-tareas/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/planing-tareas/${(await planing(ctx)).id}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/planing-tareas',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: '/api/planing-tareas',
        payload: {
          titulo: 'Cita',
          descripcion: 'Revisión',
          fecha: '2026-02-03',
          hora: '10:00',
          usuarioIds: [(await resident(ctx)).id],
          empresaId: ctx.empresaId,
        },
      },
    }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 400], EMPLEADO: [201, 400] },
  },
  {
    endpoint: 'PATCH /api/planing-tareas/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/planing-tareas/${(await planing(ctx)).id}`, payload: { titulo: 'Otra' } },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'DELETE /api/planing-tareas/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/planing-tareas/${(await planing(ctx)).id}` } }),
    expected: OWN_ONLY(204),
  },

  // Worker tasks (SPEC §6: the selector's rule; an EMPLEADO sees only its own).
  {
    endpoint: 'GET /api/tareas-trabajador',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/tareas-trabajador?pageSize=100&sort=fecha&order=desc' },
      listed: (await tareaDeColega(ctx)).id,
    }),
    expected: { SUPERADMIN: ['ve', 've'], ADMIN: ['ve', 'no ve'], EMPLEADO: ['no ve', 'no ve'] },
  },
  {
    endpoint: 'GET /api/tareas-trabajador/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/tareas-trabajador/${(await tareaDeColega(ctx)).id}` } }),
    expected: TASK(200),
  },
  {
    endpoint: 'POST /api/tareas-trabajador',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: '/api/tareas-trabajador',
        payload: {
          titulo: 'Revisar',
          descripcion: 'Botiquín',
          viviendaId: await home(ctx),
          fecha: '2026-11-25',
          prioridad: 'BAJA',
        },
      },
    }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 400], EMPLEADO: [201, 400] },
  },
  {
    endpoint: 'PATCH /api/tareas-trabajador/:id',
    prepare: async (ctx) => ({
      request: {
        method: 'PATCH',
        url: `/api/tareas-trabajador/${(await tareaDeColega(ctx)).id}`,
        payload: { completada: true },
      },
    }),
    expected: TASK(200),
  },
  {
    endpoint: 'DELETE /api/tareas-trabajador/:id',
    prepare: async (ctx) => ({
      request: { method: 'DELETE', url: `/api/tareas-trabajador/${(await tareaDeColega(ctx)).id}` },
    }),
    expected: TASK(204),
  },

  // Budgets (DECISIONS P1, A6: budgets of the companies' homes).
  {
    endpoint: 'GET /api/presupuestos',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/presupuestos?pageSize=100&sort=fechaPrevista&order=desc' },
      listed: (await presupuesto(ctx)).id,
    }),
    expected: ALL_SEE,
  },
  {
    endpoint: 'GET /api/presupuestos/:id',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/presupuestos/${(await presupuesto(ctx)).id}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'POST /api/presupuestos',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: '/api/presupuestos',
        payload: {
          descripcion: 'Pintura del salón',
          precio: '120,50',
          fechaPrevista: '2099-01-10',
          estado: 'PENDIENTE_APROBACION',
          viviendaId: await home(ctx),
        },
      },
    }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 400], EMPLEADO: [201, 400] },
  },
  {
    endpoint: 'PATCH /api/presupuestos/:id',
    prepare: async (ctx) => ({
      request: { method: 'PATCH', url: `/api/presupuestos/${(await presupuesto(ctx)).id}`, payload: { estado: 'APROBADO' } },
    }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'DELETE /api/presupuestos/:id',
    prepare: async (ctx) => ({ request: { method: 'DELETE', url: `/api/presupuestos/${(await presupuesto(ctx)).id}` } }),
    expected: OWN_ONLY(204),
  },

  // Files attached to those records (DECISIONS S5): seen as their record is.
  {
    endpoint: 'GET /api/uploads/:id (documento)',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/uploads/${await attachedFile(ctx, 'documento')}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'GET /api/uploads/:id (movimiento)',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/uploads/${await attachedFile(ctx, 'movimiento')}` } }),
    expected: OWN_ONLY(200),
  },
  {
    endpoint: 'GET /api/uploads/:id (presupuesto)',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/uploads/${await attachedFile(ctx, 'presupuesto')}` } }),
    expected: OWN_ONLY(200),
  },
]

/** A notification for a worker of the cell's company (not the caller). */
const notificacionDeColega = async (ctx: Ctx) => {
  const colega = await staff(ctx)
  const [n] = await t.db
    .insert(notificaciones)
    .values({
      titulo: 'Aviso',
      descripcion: 'Para un colega',
      tipo: 'info',
      trabajadorId: colega.id,
      fechaNotificacion: new Date(),
    })
    .returning()
  return { colega, notificacion: n! }
}
const month = { desde: '2026-03-01', hasta: '2026-04-11' }

/**
 * Calls that are not a company's record: the caller's own account and notifications, the start page's counts,
 * the calendar month, the task selector and uploads. Each cell still names the company the call points at.
 */
const accountCases: Case[] = [
  {
    endpoint: 'GET /api/trabajadores/me',
    prepare: async () => ({ request: { method: 'GET', url: '/api/trabajadores/me' } }),
    expected: { SUPERADMIN: [200, 200], ADMIN: [200, 200], EMPLEADO: [200, 200] },
  },
  {
    // Only one's own password is changed with the current one; another worker's is refused.
    endpoint: 'PATCH /api/trabajadores/:id/cambiar-password',
    prepare: async (ctx) => ({
      request: {
        method: 'PATCH',
        url: `/api/trabajadores/${(await staff(ctx)).id}/cambiar-password`,
        payload: { passwordActual: 'Demo1234', passwordNueva: 'Nueva12345' },
      },
    }),
    expected: { SUPERADMIN: [403, 403], ADMIN: [403, 403], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'GET /api/trabajadores/:id/notificaciones',
    prepare: async (ctx) => ({ request: { method: 'GET', url: `/api/trabajadores/${(await staff(ctx)).id}/notificaciones` } }),
    expected: { SUPERADMIN: [403, 403], ADMIN: [403, 403], EMPLEADO: [403, 403] },
  },
  {
    endpoint: 'GET /api/notificaciones',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/notificaciones' },
      listed: (await notificacionDeColega(ctx)).notificacion.id,
    }),
    expected: { SUPERADMIN: ['no ve', 'no ve'], ADMIN: ['no ve', 'no ve'], EMPLEADO: ['no ve', 'no ve'] },
  },
  {
    endpoint: 'POST /api/notificaciones',
    prepare: async (ctx) => ({
      request: {
        method: 'POST',
        url: '/api/notificaciones',
        payload: { titulo: 'Aviso', descripcion: 'Matriz', trabajadorId: (await staff(ctx)).id },
      },
    }),
    // A worker sharing a company with the caller; SUPERADMIN's scope is every company (P2).
    expected: OWN_ONLY(201),
  },
  {
    endpoint: 'DELETE /api/notificaciones',
    prepare: async () => ({ request: { method: 'DELETE', url: '/api/notificaciones' } }),
    expected: { SUPERADMIN: [204, 204], ADMIN: [204, 204], EMPLEADO: [204, 204] },
  },
  {
    endpoint: 'DELETE /api/notificaciones/:id',
    prepare: async (ctx) => ({
      request: { method: 'DELETE', url: `/api/notificaciones/${(await notificacionDeColega(ctx)).notificacion.id}` },
    }),
    expected: { SUPERADMIN: [404, 404], ADMIN: [404, 404], EMPLEADO: [404, 404] },
  },
  {
    endpoint: 'GET /api/inicio/pendientes',
    // Counts under the caller's scope: another company's budget awaiting a decision is not counted.
    prepare: async (ctx) => {
      await presupuesto(ctx)
      return { request: { method: 'GET', url: `/api/inicio/pendientes?empresaId=${ctx.empresaId}` } }
    },
    expected: ALL_SEE,
    seen: (body) => (body as { presupuestosPendientes: { total: number } }).presupuestosPendientes.total > 0,
  },
  {
    endpoint: 'GET /api/planing-tareas/calendario',
    prepare: async (ctx) => {
      const u = await resident(ctx)
      await makePlaningTarea(t.db, [u.id], { empresaId: ctx.empresaId, fecha: new Date('2026-03-10T09:00:00Z') })
      return {
        request: {
          method: 'GET',
          url: `/api/planing-tareas/calendario?desde=${month.desde}&hasta=${month.hasta}&empresaId=${ctx.empresaId}`,
        },
      }
    },
    expected: ALL_SEE,
    seen: (body) => (body as unknown[]).length > 0,
  },
  {
    endpoint: 'GET /api/tareas-trabajador/trabajadores',
    prepare: async (ctx) => ({
      request: { method: 'GET', url: '/api/tareas-trabajador/trabajadores' },
      listed: (await staff(ctx)).id,
    }),
    expected: { SUPERADMIN: ['ve', 've'], ADMIN: ['ve', 'no ve'], EMPLEADO: ['no ve', 'no ve'] },
  },
  {
    endpoint: 'POST /api/uploads',
    prepare: async () => ({
      request: { method: 'POST', url: '/api/uploads', ...multipart({ filename: 'f.png', content: samplePng() }) },
    }),
    expected: { SUPERADMIN: [201, 201], ADMIN: [201, 201], EMPLEADO: [201, 201] },
  },
  {
    // Only its uploader may drop a file that is not attached yet.
    endpoint: 'DELETE /api/uploads/:id',
    prepare: async (ctx) => {
      const colega = await staff(ctx)
      const res = await t.as(colega, {
        method: 'POST',
        url: '/api/uploads',
        ...multipart({ filename: 'f.png', content: samplePng() }),
      })
      return { request: { method: 'DELETE', url: `/api/uploads/${(res.json() as { id: string }).id}` } }
    },
    expected: { SUPERADMIN: [404, 404], ADMIN: [404, 404], EMPLEADO: [404, 404] },
  },
]

/**
 * Operations that are not cells of the matrix because no company's record is at stake (public calls, one's
 * own session and stream): each one says why and where its rule is tested.
 */
const OUTSIDE_THE_MATRIX: Record<string, string> = {
  'GET /api/ready': 'readiness probe, public (operations.md); app.test.ts',
  'POST /api/auth/trabajadores/login': 'the login itself; auth.test.ts and faults.test.ts (limiter)',
  'POST /api/auth/recuperar': 'asks for a reset link by e-mail, same answer for any address; auth.test.ts',
  'POST /api/auth/restablecer': 'spends a reset link; auth.test.ts',
  'GET /api/uploads/:id/contenido': "a signed link's bytes (no token so it works in <img>); uploads tests",
  'GET /api/notificaciones/stream': 'the SSE stream, its token checked as any call; notificaciones.stream.test.ts',
  'POST /api/auth/logout': "ends the caller's own session; auth.test.ts",
  'GET /api/health': 'liveness probe, public (operations.md); app.test.ts',
}

const cells = [...cases, ...accountCases].flatMap((c) =>
  (['SUPERADMIN', 'ADMIN', 'EMPLEADO'] as const).flatMap((rol) =>
    (['propia', 'ajena'] as const).map((ambito, i) => ({ c, rol, ambito, outcome: c.expected[rol][i] as Outcome })),
  ),
)

/** The resource and action an endpoint needs, as the scope module names them. */
function ruleOf(endpoint: string): { resource: Resource; action: Action } {
  const [method, full] = endpoint.split(' ') as [string, string]
  const url = full.split('?')[0] as string
  // A file is seen as the record it is attached to (lib/scope.ts uploadVisible).
  const resource = (url.split('/')[2] === 'uploads' ? 'documentos-usuario' : url.split('/')[2]) as Resource
  const subresource = url.split('/').length > 4
  const action: Action =
    method === 'GET' ? 'list' : method === 'PATCH' || subresource ? 'update' : method === 'POST' ? 'create' : 'delete'
  return { resource, action }
}

/** SPEC §8 gives these refusals of a foreign target their own 403 message (DECISIONS A3's exception). */
const SPEC_403 = new Set([
  'PATCH /api/usuarios/:id {viviendaId: destino}',
  'POST /api/usuarios/:id/viviendas/:viviendaId (destino)',
  'POST /api/usuarios',
  'POST /api/trabajadores',
  'POST /api/trabajadores/:id/empresas/:empresaId (destino)',
])

describe('the table agrees with the scope module (lib/scope.ts resourceRules)', () => {
  it.each(cells.filter((cell) => cases.includes(cell.c)).map((cell) => [cell.c.endpoint, cell.rol, cell.ambito, cell] as const))(
    '%s · %s · %s',
    (endpoint, rol, _ambito, { outcome }) => {
      const { resource, action } = ruleOf(endpoint)
      const allowed = resourceRules[resource].actions[action].includes(rol)
      if (!allowed) expect(outcome).toBe(403)
      else if (!SPEC_403.has(endpoint)) expect(outcome).not.toBe(403)
    },
  )
})

describe('permission matrix (SPEC §6, DECISIONS P1-P2)', () => {
  it.each(cells.map((cell) => [cell.c.endpoint, cell.rol, cell.ambito, String(cell.outcome), cell] as const))(
    '%s · %s · empresa %s → %s',
    async (_endpoint, rol, ambito: Ambito, _label, { c, outcome }) => {
      const worker = workers[rol]
      const ctx: Ctx = { empresaId: ambito === 'propia' ? empresaPropia : empresaAjena, ownHomeId, worker }
      const { request, listed } = await c.prepare(ctx)
      const refused = typeof outcome === 'number' && outcome >= 400
      const before = refused ? await snapshot(t.db) : ''
      const res = await t.as(worker, request)
      expect(contract.check(...operationOf(c.endpoint), res)).toEqual([])
      if (refused) {
        expect(await snapshot(t.db), 'a refused call changed a table').toBe(before)
        unchangedAfterRefusal++
      }
      if (typeof outcome === 'number') {
        expect(res.statusCode, res.body).toBe(outcome)
        if (outcome === 403) expect(res.json().code).toBe('FORBIDDEN')
        if (outcome === 404) expect(res.json().code).toBe('NOT_FOUND')
      } else {
        expect(res.statusCode).toBe(200)
        if (c.seen) expect(c.seen(res.json())).toBe(outcome === 've')
        else {
          const ids = (res.json() as { id: number }[]).map((r) => r.id)
          if (outcome === 've') expect(ids).toContain(listed)
          else expect(ids).not.toContain(listed)
        }
      }
    },
  )

  it.each([...cases, ...accountCases].map((c) => [c.endpoint, c] as const))(
    '%s without a token, and by a deactivated SUPERADMIN → 401',
    async (_endpoint, c) => {
      const { request } = await c.prepare({ empresaId: empresaPropia, ownHomeId, worker: workers.SUPERADMIN })
      for (const caller of [null, deactivated]) {
        const before = await snapshot(t.db)
        const res = await t.as(caller, request)
        expect(res.statusCode).toBe(401)
        expect(res.json().code).toBe('UNAUTHENTICATED')
        expect(contract.check(...operationOf(c.endpoint), res)).toEqual([])
        expect(await snapshot(t.db), 'a refused call changed a table').toBe(before)
        unchangedAfterRefusal++
      }
    },
  )
})

describe('every operation the API documents has a rule here', () => {
  it('reads /api/openapi.json: each operation is a cell of the matrix or listed outside it with the reason', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    )
    const covered = new Set([
      ...[...cases, ...accountCases].map((c) => c.endpoint.split(' ').slice(0, 2).join(' ').split('?')[0]),
      ...Object.keys(OUTSIDE_THE_MATRIX),
    ])
    expect(documented.length).toBeGreaterThan(70)
    expect(documented.filter((op) => !covered.has(op))).toEqual([])
  })
})

afterAll(() => {
  // The figures docs/security.md quotes.
  console.log(
    `permission matrix: ${cells.length} cells and ${[...cases, ...accountCases].length * 2} anonymous or deactivated calls; ` +
      `${contract.checked()} answers matched /api/openapi.json; ${unchangedAfterRefusal} refusals left every table unchanged`,
  )
})
