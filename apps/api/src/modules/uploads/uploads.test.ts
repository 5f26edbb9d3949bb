import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { UPLOAD_MAX_BYTES, uploadMessages } from '@vb/shared'
import { count, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { uploads } from '../../db/schema'
import { samplePdf, samplePng } from '../../lib/sample-files'
import { buildTestApp, type TestWorker } from '../../test/build-test-app'
import { multipart, sampleCfb, sampleDocx, sampleHtml, sampleJpeg, sampleSvg, sampleZip } from '../../test/files'
import { testScenario } from '../../test/scenario'
import { sweepUploads } from './uploads.service'

const clock = { at: new Date('2026-11-21T11:00:00Z'), now: () => clock.at }
const { t, w, other } = await testScenario({
  clock,
  empresaB: false,
  workers: { w: { rol: 'EMPLEADO', of: ['A'] }, other: { rol: 'EMPLEADO', of: ['A'] } },
})
const pdf = await samplePdf(['Recibo de farmacia', 'Total: 12,50 €'])

const upload = (worker: TestWorker | null, body: ReturnType<typeof multipart>) =>
  t.as(worker, { method: 'POST', url: '/api/uploads', ...body })
const rows = async () => Number((await t.db.select({ n: count() }).from(uploads))[0]?.n)
const filesOnDisk = () => readdirSync(t.uploadsDir)

describe('POST /api/uploads (DECISIONS S5, D8)', () => {
  it.each([
    ['recibo.pdf', () => pdf, 'application/pdf'],
    ['Informe social.docx', sampleDocx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['antiguo.DOC', sampleCfb, 'application/msword'],
    ['foto.jpg', sampleJpeg, 'image/jpeg'],
    ['foto.jpeg', sampleJpeg, 'image/jpeg'],
    ['ticket.png', () => samplePng(), 'image/png'],
  ])('stores %s under a random name, 0600, with its row (owner, name, type, size, sha-256)', async (filename, make, mime) => {
    const content = make()
    const res = await upload(w, multipart({ filename, content }))
    expect(res.statusCode, res.body).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      url: `/api/uploads/${body.id}`,
      nombre: filename,
      mime,
      tamano: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      adjunto: false,
      archivo: { origen: 'subido', nombre: filename, mime, tamano: content.length },
    })
    expect(body.archivo.url).toMatch(new RegExp(`^/api/uploads/${body.id}/contenido\\?`))
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, body.id))
    expect(row).toMatchObject({ trabajadorId: w.id, nombreOriginal: filename, mime, tamano: content.length })
    const file = path.join(t.uploadsDir, body.id)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(t.uploadsDir).mode & 0o777).toBe(0o700)
    expect(filesOnDisk().filter((f) => f.startsWith('.'))).toEqual([])
  })

  it.each([
    ['an SVG', { filename: 'logo.svg', content: sampleSvg() }, 415, uploadMessages.tipoNoAdmitido],
    ['an HTML page', { filename: 'pagina.html', content: sampleHtml() }, 415, uploadMessages.tipoNoAdmitido],
    ['HTML renamed .pdf', { filename: 'factura.pdf', content: sampleHtml() }, 415, uploadMessages.contenidoNoCoincide],
    ['SVG renamed .png', { filename: 'foto.png', content: sampleSvg() }, 415, uploadMessages.contenidoNoCoincide],
    ['a PNG renamed .pdf', { filename: 'recibo.pdf', content: samplePng() }, 415, uploadMessages.contenidoNoCoincide],
    ['a zip renamed .docx', { filename: 'carta.docx', content: sampleZip() }, 415, uploadMessages.contenidoNoCoincide],
    ['a spreadsheet renamed .doc', { filename: 'hoja.doc', content: sampleCfb(false) }, 415, uploadMessages.contenidoNoCoincide],
    [
      'a PDF renamed .exe',
      { filename: 'programa.exe', content: Buffer.from('%PDF-1.4\n%%EOF\n') },
      415,
      uploadMessages.tipoNoAdmitido,
    ],
    [
      'a path-traversal name',
      { filename: '../../etc/passwd.pdf', content: Buffer.from('%PDF-1.4\n') },
      400,
      uploadMessages.nombreInvalido,
    ],
    ['a Windows path', { filename: '..\\..\\boot.pdf', content: Buffer.from('%PDF-1.4\n') }, 400, uploadMessages.nombreInvalido],
    [
      'a name that is only an extension',
      { filename: '.pdf', content: Buffer.from('%PDF-1.4\n') },
      400,
      uploadMessages.nombreInvalido,
    ],
    ['an empty file', { filename: 'vacio.pdf', content: Buffer.alloc(0) }, 400, uploadMessages.vacio],
  ])('refuses %s and leaves no file and no row', async (_what, file, status, message) => {
    const before = await rows()
    const res = await upload(w, multipart(file))
    expect(res.statusCode, res.body).toBe(status)
    expect(res.json()).toMatchObject({ statusCode: status, message })
    expect(res.json().fieldErrors).toEqual({ file: message })
    expect(await rows()).toBe(before)
    expect(filesOnDisk().filter((f) => f.startsWith('.'))).toEqual([])
    expect(filesOnDisk()).toHaveLength(before)
  })

  it('refuses 10.5 MB with 413 and the A3 body, leaving nothing', async () => {
    const before = await rows()
    const big = Buffer.concat([pdf, Buffer.alloc(UPLOAD_MAX_BYTES + 512 * 1024 - pdf.length, 0x20)])
    const res = await upload(w, multipart({ filename: 'grande.pdf', content: big }))
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: uploadMessages.demasiadoGrande,
      fieldErrors: { file: uploadMessages.demasiadoGrande },
    })
    expect(await rows()).toBe(before)
    expect(filesOnDisk()).toHaveLength(before)
    // Exactly 10 MB is accepted.
    const exact = Buffer.concat([pdf, Buffer.alloc(UPLOAD_MAX_BYTES - pdf.length, 0x20)])
    expect((await upload(w, multipart({ filename: 'justo.pdf', content: exact }))).statusCode).toBe(201)
  })

  it('refuses a cut-off multipart body, a body without the file field and a non-multipart call, leaving nothing', async () => {
    const before = await rows()
    const cut = await upload(w, multipart({ filename: 'recibo.pdf', content: pdf }, {}, { cut: true }))
    expect(cut.statusCode).toBe(400)
    expect(cut.json().message).toBe(uploadMessages.interrumpida)
    const noFile = await upload(w, multipart(null, { nota: 'sin archivo' }))
    expect(noFile.statusCode).toBe(400)
    expect(noFile.json().fieldErrors).toEqual({ file: uploadMessages.archivoObligatorio })
    const otherField = await upload(w, multipart({ field: 'foto', filename: 'recibo.pdf', content: pdf }))
    expect(otherField.statusCode).toBe(400)
    const json = await t.as(w, { method: 'POST', url: '/api/uploads', payload: { file: 'recibo.pdf' } })
    expect(json.statusCode).toBe(415)
    expect(json.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: uploadMessages.noMultipart })
    expect(await rows()).toBe(before)
    expect(filesOnDisk()).toHaveLength(before)
  })

  it('a client that drops the connection mid-upload leaves no temporary file and no row', async () => {
    const before = await rows()
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const body = multipart({ filename: 'grande.pdf', content: Buffer.concat([pdf, Buffer.alloc(3 * 1024 * 1024, 0x20)]) })
    let sawTemporary = false
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/uploads',
        headers: { ...body.headers, 'content-length': String(body.payload.length), authorization: `Bearer ${w.token}` },
      })
      req.on('error', () => resolve())
      req.on('close', () => resolve())
      // Half the body; once the server is writing it to a temporary file, the connection goes.
      req.write(body.payload.subarray(0, body.payload.length / 2), async () => {
        const until = Date.now() + 5000
        while (!sawTemporary && Date.now() < until) {
          sawTemporary = filesOnDisk().some((f) => f.startsWith('.subida-'))
          await new Promise((r) => setTimeout(r, 20))
        }
        req.destroy()
      })
    })
    expect(sawTemporary).toBe(true)
    const deadline = Date.now() + 5000
    while (filesOnDisk().some((f) => f.startsWith('.')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(filesOnDisk().filter((f) => f.startsWith('.'))).toEqual([])
    expect(await rows()).toBe(before)
  })

  it('requires a token', async () => {
    expect((await upload(null, multipart({ filename: 'recibo.pdf', content: pdf }))).statusCode).toBe(401)
  })

  it('keeps files 0600 and a new folder 0700 under umask 000', async () => {
    const previous = process.umask(0o000)
    try {
      const loose = await buildTestApp({
        database: t.database,
        uploadsDir: path.join(mkdtempSync(path.join(tmpdir(), 'vb-umask-')), 'uploads'),
      })
      try {
        const worker = await loose.worker('EMPLEADO', [])
        const res = await loose.as(worker, {
          method: 'POST',
          url: '/api/uploads',
          ...multipart({ filename: 'a.png', content: samplePng() }),
        })
        expect(res.statusCode).toBe(201)
        expect(statSync(path.join(loose.uploadsDir, res.json().id)).mode & 0o777).toBe(0o600)
        expect(statSync(loose.uploadsDir).mode & 0o777).toBe(0o700)
      } finally {
        await loose.app.close()
        rmSync(path.dirname(loose.uploadsDir), { recursive: true, force: true })
      }
    } finally {
      process.umask(previous)
    }
  })
})

describe('reading uploads back (DECISIONS S5)', () => {
  it('serves the file by its signed link with its type, a sanitised name, nosniff and a restrictive CSP', async () => {
    const name = 'Recibo; farmacia ñ.pdf'
    const res = await upload(w, multipart({ filename: name, content: pdf }))
    expect(res.statusCode).toBe(201)
    const { archivo } = res.json()
    const ver = await t.app.inject({ method: 'GET', url: archivo.url })
    expect(ver.statusCode).toBe(200)
    expect(ver.rawPayload.equals(pdf)).toBe(true)
    expect(ver.headers['content-type']).toBe('application/pdf')
    expect(ver.headers['content-disposition']).toBe(
      `inline; filename="Recibo farmacia n.pdf"; filename*=UTF-8''Recibo%20farmacia%20%C3%B1.pdf`,
    )
    expect(ver.headers['x-content-type-options']).toBe('nosniff')
    expect(ver.headers['content-security-policy']).toMatch(/^default-src 'none'/)
    const descarga = await t.app.inject({ method: 'GET', url: archivo.descargaUrl })
    expect(descarga.headers['content-disposition']).toMatch(/^attachment; /)
    expect(descarga.headers['content-security-policy']).toMatch(/sandbox$/)
  })

  it('refuses a tampered, a foreign-worker and an expired link (403), and an unattached file of someone else (404)', async () => {
    const res = await upload(w, multipart({ filename: 'foto.png', content: samplePng() }))
    const { id, archivo } = res.json()
    const tampered = archivo.url.replace(/s=[^&]+/, 's=AAAA')
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403)
    const otherWorker = archivo.url.replace(/t=\d+/, `t=${other.id}`)
    expect((await t.app.inject({ method: 'GET', url: otherWorker })).statusCode).toBe(403)
    // Its uploader may read it; another worker of the same company may not while it is unattached.
    expect((await t.as(w, { method: 'GET', url: `/api/uploads/${id}` })).statusCode).toBe(200)
    const foreign = await t.as(other, { method: 'GET', url: `/api/uploads/${id}` })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().message).toBe(uploadMessages.noEncontrado)
    // Five minutes later the link has expired.
    clock.at = new Date(clock.at.getTime() + 5 * 60_000 + 1000)
    try {
      const expired = await t.app.inject({ method: 'GET', url: archivo.url })
      expect(expired.statusCode).toBe(403)
      expect(expired.json().message).toBe(uploadMessages.enlaceCaducado)
      // A fresh one works.
      const fresh = (await t.as(w, { method: 'GET', url: `/api/uploads/${id}` })).json().archivo.url
      expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200)
    } finally {
      clock.at = new Date('2026-11-21T11:00:00Z')
    }
  })

  it('lets its uploader discard an unattached file, which goes from disk too', async () => {
    const { id } = (await upload(w, multipart({ filename: 'borrar.pdf', content: pdf }))).json()
    expect((await t.as(other, { method: 'DELETE', url: `/api/uploads/${id}` })).statusCode).toBe(404)
    expect((await t.as(w, { method: 'DELETE', url: `/api/uploads/${id}` })).statusCode).toBe(204)
    expect(existsSync(path.join(t.uploadsDir, id))).toBe(false)
    expect((await t.as(w, { method: 'GET', url: `/api/uploads/${id}` })).statusCode).toBe(404)
  })
})

describe('the daily sweep of the uploads folder', () => {
  it('removes uploads unattached for a day, files without a row and stale temporary files; keeps the rest', async () => {
    const keep = (await upload(w, multipart({ filename: 'reciente.pdf', content: pdf }))).json().id
    const [old] = await t.db
      .insert(uploads)
      .values({
        nombreOriginal: 'viejo.pdf',
        mime: 'application/pdf',
        tamano: 3,
        sha256: 'x'.repeat(64),
        trabajadorId: w.id,
        createdAt: new Date('2026-11-19T10:00:00Z'),
      })
      .returning()
    writeFileSync(path.join(t.uploadsDir, old!.id), 'pdf')
    const orphan = path.join(t.uploadsDir, '0b6f3a52-52cd-4a2b-9e35-6a1f0a3c9d11')
    const temp = path.join(t.uploadsDir, '.subida-abc.part')
    const freshTemp = path.join(t.uploadsDir, '.subida-def.part')
    for (const f of [orphan, temp, freshTemp]) writeFileSync(f, 'x')
    const hourAgo = (clock.at.getTime() - 2 * 60 * 60_000) / 1000
    utimesSync(orphan, hourAgo, hourAgo)
    utimesSync(temp, hourAgo, hourAgo)
    const tenMinutesAgo = (clock.at.getTime() - 10 * 60_000) / 1000
    utimesSync(freshTemp, tenMinutesAgo, tenMinutesAgo)
    // The sweep's clock is the real file times': run it with "now" = the test clock.
    const result = await sweepUploads(t.app.deps)
    expect(result.rows).toBeGreaterThanOrEqual(1)
    expect(existsSync(path.join(t.uploadsDir, old!.id))).toBe(false)
    expect((await t.db.select().from(uploads).where(eq(uploads.id, old!.id))).length).toBe(0)
    expect(existsSync(orphan)).toBe(false)
    expect(existsSync(temp)).toBe(false)
    expect(existsSync(freshTemp)).toBe(true)
    expect(existsSync(path.join(t.uploadsDir, keep))).toBe(true)
    rmSync(freshTemp)
  })

  it('removes a file without a row at once (a process killed mid-upload), unless its upload is still committing', async () => {
    const orphan = path.join(t.uploadsDir, '1b6f3a52-52cd-4a2b-9e35-6a1f0a3c9d12')
    const busy = '2b6f3a52-52cd-4a2b-9e35-6a1f0a3c9d13'
    writeFileSync(orphan, 'x')
    writeFileSync(path.join(t.uploadsDir, busy), 'x')
    // An upload that has renamed its file and not committed yet holds the file's lock in its transaction.
    let commit!: () => void
    let locked!: () => void
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve
    })
    const uploading = t.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(727275, hashtext(${busy}))`)
      locked()
      await new Promise<void>((resolve) => {
        commit = resolve
      })
    })
    await isLocked
    await sweepUploads(t.app.deps)
    expect(existsSync(orphan)).toBe(false)
    expect(existsSync(path.join(t.uploadsDir, busy))).toBe(true)
    // It ended without its row (the process died): the next sweep removes the file.
    commit()
    await uploading
    await sweepUploads(t.app.deps)
    expect(existsSync(path.join(t.uploadsDir, busy))).toBe(false)
  })
})
