import { describe, expect, it } from 'vitest'
import { makeNif } from './test/factories'
import { call, connectApp, letters, liveServers } from './test/live-server'
import { login } from './test/server-process'

/**
 * Load held (docs/security.md): the real server, 50 clients for LOAD_SECONDS (10 in `npm test`, 60 in the heavy
 * suite) on a mix of the calls the screens make first, 5 % of them writes. Every answer must be a success, and
 * afterwards each client finds its own writes: each cash movement it was told was saved, its resident's last
 * name as it last set it, and the resident's balance exact to the cent.
 */

const live = liveServers()
const CLIENTS = 50
const SECONDS = Number(process.env.LOAD_SECONDS ?? 10)
const WRITE_SHARE = 0.05

interface ClientState {
  usuarioId: number
  nif: string
  movimientos: number[]
  /** The last name it set and was told was saved. */
  apellidos: string
  reads: number
  writes: number
  errors: string[]
}

describe(`${CLIENTS} clients for ${SECONDS} s, ${WRITE_SHARE * 100} % writes (${live.engine === 'pg' ? 'TEST_DATABASE_URL' : 'embedded'})`, () => {
  it(
    'answers every call, loses no write and keeps every balance exact',
    async () => {
      const place = await live.place()
      const server = await live.start(place)
      const base = server.base
      const token = await login(base)
      const json = async (res: Response) => {
        if (res.status >= 300) throw new Error(`${res.url} ${res.status}: ${await res.text()}`)
        return res.json() as Promise<Record<string, unknown>>
      }
      const empresa = await json(await call(`${base}/api/empresas`, token, { nombre: 'Empresa De Carga' }))
      const vivienda = await json(
        await call(`${base}/api/viviendas`, token, { nombre: 'Vivienda De Carga', empresaId: empresa.id }),
      )
      const me = await json(await call(`${base}/api/trabajadores/me`, token))
      const clients: ClientState[] = []
      for (let c = 0; c < CLIENTS; c++) {
        const nif = makeNif()
        const u = await json(
          await call(`${base}/api/usuarios`, token, { nombre: 'Carga', apellidos: 'Inicial', nif, viviendaId: vivienda.id }),
        )
        clients.push({ usuarioId: u.id as number, nif, movimientos: [], apellidos: 'Inicial', reads: 0, writes: 0, errors: [] })
      }
      const today = new Date().toISOString().slice(0, 10)
      const reads = (c: ClientState, i: number) => [
        `/api/usuarios?q=${['carga', 'garcia', 'ana', 'inicial'][i % 4]}&page=1&pageSize=20`,
        `/api/usuarios?sort=vivienda&order=asc&page=1&pageSize=20`,
        `/api/viviendas?page=1&pageSize=20`,
        `/api/caja-usuario?nif=${c.nif}&page=1&pageSize=20`,
        `/api/documentos-usuario?nif=${c.nif}&page=1&pageSize=20`,
        `/api/logs?fecha=${today}&page=1&pageSize=50`,
        `/api/planing-tareas/calendario?desde=2026-10-26&hasta=2026-12-06&empresaId=${empresa.id}`,
        `/api/tareas-trabajador?trabajadorId=${me.id}&completada=false`,
        `/api/presupuestos?viviendaId=${vivienda.id}&estado=PENDIENTE_APROBACION`,
        `/api/notificaciones`,
        `/api/inicio/pendientes?empresaId=${empresa.id}`,
        `/api/trabajadores?page=1&pageSize=20`,
      ]
      const deadline = Date.now() + SECONDS * 1000
      const run = async (c: ClientState, k: number) => {
        for (let i = 0; Date.now() < deadline; i++) {
          if (Math.random() < WRITE_SHARE) {
            c.writes++
            if (i % 2) {
              const res = await call(`${base}/api/caja-usuario`, token, {
                concepto: `Carga ${k}-${i}`,
                cantidad: '0.01',
                fecha: today,
                usuarioId: c.usuarioId,
              })
              if (res.status === 201) c.movimientos.push(((await res.json()) as { id: number }).id)
              else c.errors.push(`POST caja-usuario → ${res.status} ${await res.text()}`)
            } else {
              const apellidos = `Carga ${letters(k * 100_000 + i)}`
              const res = await call(`${base}/api/usuarios/${c.usuarioId}`, token, { apellidos }, 'PATCH')
              if (res.status === 200) c.apellidos = apellidos
              else c.errors.push(`PATCH usuarios → ${res.status} ${await res.text()}`)
            }
          } else {
            const options = reads(c, i)
            const url = options[i % options.length] as string
            c.reads++
            const res = await call(`${base}${url}`, token)
            if (res.status !== 200) c.errors.push(`GET ${url} → ${res.status} ${(await res.text()).slice(0, 200)}`)
            else await res.arrayBuffer()
          }
        }
      }
      const started = performance.now()
      await Promise.all(clients.map(run))
      const elapsed = (performance.now() - started) / 1000

      const errors = clients.flatMap((c) => c.errors)
      expect(errors.slice(0, 10)).toEqual([])
      // Each client checks its own writes, through the API and in the database.
      const db = await connectApp(place)
      let found = 0
      try {
        for (const c of clients) {
          const { rows } = await db.query('select id from caja_usuario where usuario_id = $1 and id = any($2::int[])', [
            c.usuarioId,
            c.movimientos,
          ])
          expect(rows.length).toBe(c.movimientos.length)
          found += rows.length
          const res = await call(`${base}/api/caja-usuario?nif=${c.nif}&page=1&pageSize=1`, token)
          expect(res.status).toBe(200)
          // The balance the server reports is exact: one cent per saved movement.
          expect(res.headers.get('x-saldo')).toBe((c.movimientos.length / 100).toFixed(2))
          const usuario = await json(await call(`${base}/api/usuarios/${c.usuarioId}`, token))
          expect(usuario.apellidos).toBe(c.apellidos)
        }
      } finally {
        await db.end()
      }
      const total = clients.reduce((n, c) => n + c.reads + c.writes, 0)
      const writes = clients.reduce((n, c) => n + c.writes, 0)
      console.log(
        `load (${live.engine}): ${CLIENTS} clients, ${elapsed.toFixed(1)} s, ${total} calls (${(total / elapsed).toFixed(0)}/s), ` +
          `${writes} writes, ${errors.length} errors, ${found} movements saved and all found`,
      )
    },
    (SECONDS + 180) * 1000,
  )
})
