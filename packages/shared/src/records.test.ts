import { describe, expect, it } from 'vitest'
import { movimientoCajaCreateSchema, movimientoCajaListQuerySchema } from './caja'
import { charLength, fechaSchema } from './common'
import { addDays, lastFullMonth, madridDay, madridStartOfDay } from './dates'
import { documentoCreateSchema } from './documentos'
import { pirNotification, pirStatus, pirWhen } from './pir'
import { errorsOf } from './test-helpers'
import { uploadIdOf, uploadReference } from './uploads'

const fecha = fechaSchema({ obligatoria: 'obligatoria', invalida: 'invalida' })
const ID = '3f2b8c1e-9a4d-4e6b-8f00-123456789abc'

describe('dates of the records (DECISIONS D10)', () => {
  it('a day means the start of that day in Europe/Madrid, in winter and in summer', () => {
    expect(madridStartOfDay('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z')
    expect(madridStartOfDay('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z')
    // The day DST starts (29 March 2026) still begins at 00:00 +01:00.
    expect(madridStartOfDay('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z')
    expect(madridDay(madridStartOfDay('2026-10-25'))).toBe('2026-10-25')
  })
  it('the last full month is the calendar month before today in Madrid', () => {
    expect(lastFullMonth(new Date('2026-11-21T11:00:00Z'))).toEqual({ desde: '2026-10-01', hasta: '2026-10-31' })
    expect(lastFullMonth(new Date('2026-01-05T11:00:00Z'))).toEqual({ desde: '2025-12-01', hasta: '2025-12-31' })
    // 1 March 00:30 in Madrid is still 28 February in UTC: Madrid decides.
    expect(lastFullMonth(new Date('2026-02-28T23:30:00Z'))).toEqual({ desde: '2026-02-01', hasta: '2026-02-28' })
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
  })
  it('fechaSchema takes an ISO instant or a day, and refuses the rest with its messages', () => {
    expect(fecha.parse('2026-11-21T10:00:00Z')).toBe('2026-11-21T10:00:00.000Z')
    expect(fecha.parse('2026-11-21T10:00:00+01:00')).toBe('2026-11-21T09:00:00.000Z')
    expect(fecha.parse('2026-11-21')).toBe('2026-11-20T23:00:00.000Z')
    // Without a zone, Madrid's wall clock (seconds dropped), whatever the zone of the machine parsing it.
    expect(fecha.parse('2026-11-21T10:30')).toBe('2026-11-21T09:30:00.000Z')
    expect(fecha.parse('2026-07-21T10:30:15')).toBe('2026-07-21T08:30:00.000Z')
    for (const bad of ['2026-02-31', '21/11/2026', 'mañana', '2026-13-01', '0001-01-01', '2026-02-30T10:00:00Z', 7]) {
      expect(fecha.safeParse(bad).error?.issues[0]?.message, String(bad)).toBe('invalida')
    }
    for (const missing of [undefined, null, '', '   '])
      expect(fecha.safeParse(missing).error?.issues[0]?.message).toBe('obligatoria')
  })
})

describe('texts count characters as the database does', () => {
  it('an emoji is one character', () => {
    expect(charLength('😀')).toBe(1)
    expect(charLength(`${'a'.repeat(149)}😀`)).toBe(150)
  })
})

describe('documentoCreateSchema (SPEC §5 Resident document)', () => {
  const ok = { titulo: 'Informe social', archivoUrl: 'https://ejemplo.es/a.pdf', fecha: '2026-11-21', usuarioId: 4 }
  it('accepts an http(s) URL or an uploaded file reference (DECISIONS D8)', () => {
    expect(documentoCreateSchema.parse(ok).archivoUrl).toBe('https://ejemplo.es/a.pdf')
    expect(documentoCreateSchema.parse({ ...ok, archivoUrl: ` ${uploadReference(ID)} ` }).archivoUrl).toBe(`/api/uploads/${ID}`)
  })
  it('answers each field with SPEC’s message', () => {
    expect(errorsOf(documentoCreateSchema, {})).toEqual({
      titulo: 'El título es obligatorio',
      archivoUrl: 'La URL del archivo es obligatoria',
      fecha: 'La fecha es obligatoria',
      usuarioId: 'El usuario es obligatorio',
    })
    expect(
      errorsOf(documentoCreateSchema, { ...ok, titulo: ' ab ', archivoUrl: 'javascript:alert(1)', fecha: '2026-02-30' }),
    ).toEqual({
      titulo: 'El título debe tener al menos 3 caracteres',
      archivoUrl: 'La URL del archivo no es válida',
      fecha: 'La fecha no es válida',
    })
    expect(errorsOf(documentoCreateSchema, { ...ok, titulo: 'x'.repeat(121) })).toEqual({
      titulo: 'El título no puede superar 120 caracteres',
    })
    expect(errorsOf(documentoCreateSchema, { ...ok, archivoUrl: '/api/uploads/../../etc/passwd' })).toEqual({
      archivoUrl: 'La URL del archivo no es válida',
    })
    // 120 characters with emoji fit.
    expect(documentoCreateSchema.safeParse({ ...ok, titulo: '📄'.repeat(120) }).success).toBe(true)
  })
})

describe('movimientoCajaCreateSchema (SPEC §5 Cash movement, DECISIONS A6, D7)', () => {
  const ok = { concepto: 'Farmacia', cantidad: '-12,5', fecha: '2026-11-21T10:00:00Z', usuarioId: 1 }
  it('keeps amounts exact or refuses them, never rounds', () => {
    expect(movimientoCajaCreateSchema.parse(ok).cantidad).toBe('-12.50')
    const message = (cantidad: unknown) => errorsOf(movimientoCajaCreateSchema, { ...ok, cantidad }).cantidad
    expect(message('1e3')).toBe('La cantidad debe ser un número')
    expect(message('0.001')).toBe('La cantidad solo puede tener hasta 2 decimales')
    expect(message('abc')).toBe('La cantidad debe ser un número')
    expect(message('')).toBe('La cantidad es obligatoria')
    expect(message(0)).toBe('La cantidad no puede ser 0')
    expect(message('1000000000000000')).toBe('La cantidad no puede superar 9.999.999.999,99 €')
  })
  it('a concept of 150 characters with emoji fits; 151 does not', () => {
    const concepto = `"<script>alert('x')</script>" ${'ñ'.repeat(119)}😀`
    expect(charLength(concepto)).toBe(150)
    expect(movimientoCajaCreateSchema.parse({ ...ok, concepto }).concepto).toBe(concepto)
    expect(errorsOf(movimientoCajaCreateSchema, { ...ok, concepto: `${concepto}x` })).toEqual({
      concepto: 'El concepto no puede superar 150 caracteres',
    })
  })
  it('a receipt must be an uploaded file', () => {
    expect(errorsOf(movimientoCajaCreateSchema, { ...ok, justificanteUrl: 'https://ejemplo.es/a.pdf' })).toEqual({
      justificanteUrl: 'El justificante debe ser un archivo subido',
    })
    expect(movimientoCajaCreateSchema.parse({ ...ok, justificanteUrl: uploadReference(ID) }).justificanteUrl).toBe(
      uploadReference(ID),
    )
  })
  it('a range whose end is before its start is refused', () => {
    expect(errorsOf(movimientoCajaListQuerySchema, { desde: '2026-11-02', hasta: '2026-11-01' })).toEqual({
      hasta: 'La fecha final no puede ser anterior a la inicial',
    })
  })
})

describe('uploads references', () => {
  it('reads only /api/uploads/<uuid>', () => {
    expect(uploadIdOf(`/api/uploads/${ID}`)).toBe(ID)
    expect(uploadIdOf(`/api/uploads/${ID}/x`)).toBeNull()
    expect(uploadIdOf('https://ejemplo.es/api/uploads/x')).toBeNull()
  })
})

describe('PIR notifications (SPEC §4)', () => {
  const today = new Date('2026-11-21T11:00:00Z')
  it('say when in good Spanish', () => {
    expect(pirWhen(0)).toBe('hoy')
    expect(pirWhen(1)).toBe('mañana')
    expect(pirWhen(12)).toBe('en 12 días')
    expect(pirNotification('Ana Ruiz', pirStatus(['2026-05-21'], today))).toEqual({
      titulo: 'PIR próximo a caducar',
      descripcion: 'El PIR de Ana Ruiz caduca hoy.',
    })
    expect(pirNotification('Ana Ruiz', pirStatus(['2026-06-21'], today))?.descripcion).toBe(
      'El PIR de Ana Ruiz caduca en 30 días.',
    )
    expect(pirNotification('Ana Ruiz', pirStatus(['2026-05-20'], today))).toEqual({
      titulo: 'PIR caducado',
      descripcion: 'El PIR de Ana Ruiz ha caducado.',
    })
    expect(pirNotification('Ana Ruiz', pirStatus(['2026-06-22'], today))).toBeNull()
    expect(pirNotification('Ana Ruiz', pirStatus([], today))).toBeNull()
  })
})
