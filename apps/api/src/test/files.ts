import { crc32 } from 'node:zlib'

/** Test fixtures for uploads: the accepted types by content, and impostors. */

/**
 * The fields a zip's local header and its central directory entry share, in the same order: version
 * needed, then (after flags, method and times) CRC-32, both sizes and the name's length.
 */
function zipEntryHeader(size: number, signature: number, at: { version: number; crc: number }) {
  return (crc: number, length: number, nameLength: number) => {
    const header = Buffer.alloc(size)
    header.writeUInt32LE(signature, 0)
    header.writeUInt16LE(20, at.version)
    header.writeUInt32LE(crc, at.crc)
    header.writeUInt32LE(length, at.crc + 4)
    header.writeUInt32LE(length, at.crc + 8)
    header.writeUInt16LE(nameLength, at.crc + 12)
    return header
  }
}
const localHeader = zipEntryHeader(30, 0x04034b50, { version: 4, crc: 14 })
const centralHeader = zipEntryHeader(46, 0x02014b50, { version: 6, crc: 16 })

/** A zip archive of stored (uncompressed) entries. */
function zip(entries: Array<[string, string]>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of entries) {
    const n = Buffer.from(name)
    const d = Buffer.from(text)
    const crc = crc32(d)
    const local = localHeader(crc, d.length, n.length)
    const central = centralHeader(crc, d.length, n.length)
    // The central entry also says which version made it, and where its local header starts.
    central.writeUInt16LE(20, 4)
    central.writeUInt32LE(offset, 42)
    locals.push(local, n, d)
    centrals.push(central, n)
    offset += 30 + n.length + d.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

export function sampleDocx(): Buffer {
  return zip([
    [
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ],
    ['word/document.xml', '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'],
  ])
}

/** A zip that is not a Word document. */
export const sampleZip = () => zip([['nota.txt', 'hola']])

/** An OLE compound file; `word` puts a WordDocument stream name in its directory (a .doc). */
export function sampleCfb(word = true): Buffer {
  const b = Buffer.alloc(2048)
  Buffer.from('D0CF11E0A1B11AE1', 'hex').copy(b)
  Buffer.from(word ? 'WordDocument' : 'Workbook', 'utf16le').copy(b, 1024)
  return b
}

/** A 1×1 baseline JPEG. */
export const sampleJpeg = () =>
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  )

export const sampleSvg = () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
export const sampleHtml = () => Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')

/** A multipart/form-data body with one file part (and optional fields), and its content type. */
export function multipart(
  file: { field?: string; filename: string; content: Buffer; type?: string } | null,
  fields: Record<string, string> = {},
  { cut = false }: { cut?: boolean } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----vbPrueba7MA4YWxkTrZu0gW'
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    )
  }
  let payload = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)])
  // A body cut off in the middle of the file: no closing boundary ever comes.
  if (cut) payload = payload.subarray(0, Math.floor(payload.length * 0.6))
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}
