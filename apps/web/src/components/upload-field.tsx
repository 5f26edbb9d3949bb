import type { Archivo, Upload } from '@vb/shared'
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, uploadIdOf, uploadMessages } from '@vb/shared/uploads-core'
import { type ReactNode, useId, useRef, useState } from 'react'
import { Button, Form, Spinner } from 'react-bootstrap'
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form'
import { api } from '../lib/api-client'
import { errorMessage } from '../lib/form-errors'
import { formatCount } from '../lib/format'
import { Icon } from './icon'

interface UploadFieldProps<T extends FieldValues, C, O> {
  form: UseFormReturn<T, C, O>
  /** The field holding the file's reference ('/api/uploads/<id>'), or a URL when `allowUrl`. */
  name: Path<T>
  label: string
  /** SPEC §2.14 'Archivo (URL)': the field also takes an http(s) address (DECISIONS D8). */
  allowUrl?: boolean
  /** The record's file as the API describes it (its name), when editing. */
  current?: Archivo | null
  /** What clearing the field stores: '' (a required field shows its message) or null (removes a receipt). */
  emptyValue?: '' | null
  help?: ReactNode
  /** Said after the reason when an upload fails (SPEC §2.10: 'the worker is saved without a photo'). */
  failureNote?: string
}

/**
 * The files this tab has uploaded, by reference, so a field names the file it holds, also in a form given back
 * after a login (lib/drafts.ts) rather than as 'Archivo subido'. Only a form whose value is that reference shows
 * it, and only the worker who uploaded it gets such a form back.
 */
const uploadedHere = new Map<string, Upload>()

const kb = (bytes: number) => `${formatCount(Math.max(1, Math.round(bytes / 1024)))} KB`

/**
 * A file for a record (DECISIONS S5, D8): chosen here, uploaded at once to POST /api/uploads (which checks
 * its type, content and size and answers in Spanish), and kept in the form as the reference the record will
 * carry. With `allowUrl` the same field takes a URL instead. The file's name shows once it is attached.
 */
export function UploadField<T extends FieldValues, C, O>({
  form,
  name,
  label,
  allowUrl = false,
  current,
  emptyValue = '',
  help,
  failureNote,
}: UploadFieldProps<T, C, O>) {
  const id = useId()
  const fileId = `${id}-file`
  const errorId = `${id}-error`
  const fileInput = useRef<HTMLInputElement>(null)
  const [uploading, setUploading] = useState(false)
  const value = (form.watch(name) as string | null | undefined) ?? ''
  const { error } = form.getFieldState(name, form.formState)
  const reference = value ? uploadIdOf(value) : null
  const set = (next: string | null) =>
    form.setValue(name, next as PathValue<T, Path<T>>, { shouldDirty: true, shouldValidate: false })

  const choose = async (file: File | undefined) => {
    if (!file) return
    form.clearErrors(name)
    const failed = (reason: string) =>
      form.setError(name, { type: 'upload', message: failureNote ? `${reason} ${failureNote}` : reason })
    if (file.size > UPLOAD_MAX_BYTES) {
      failed(uploadMessages.demasiadoGrande)
      return
    }
    if (file.size === 0) {
      failed(uploadMessages.vacio)
      return
    }
    setUploading(true)
    try {
      const upload = await api.upload<Upload>(file)
      uploadedHere.set(upload.url, upload)
      set(upload.url)
    } catch (err) {
      failed(errorMessage(err))
    } finally {
      setUploading(false)
      if (fileInput.current) fileInput.current.value = ''
    }
  }

  const mine = uploadedHere.get(value)
  const fileName = mine ? mine.nombre : current?.origen === 'subido' && reference ? current.nombre : null
  const fileSize = mine ? mine.tamano : current?.tamano

  return (
    <Form.Group>
      <Form.Label htmlFor={reference || !allowUrl ? fileId : id}>{label}</Form.Label>
      {reference ? (
        <div className="d-flex align-items-center gap-2 border rounded px-2 py-1 vb-upload-chosen">
          <Icon name="paperclip" />
          <span className="flex-grow-1 text-break">
            {fileName ?? 'Archivo subido'}
            {fileSize ? <span className="text-body-secondary"> ({kb(fileSize)})</span> : null}
          </span>
          <Button variant="link" size="sm" className="text-danger" onClick={() => set(emptyValue)}>
            Quitar
          </Button>
        </div>
      ) : (
        allowUrl && (
          <Form.Control
            id={id}
            type="url"
            placeholder="https://…"
            autoComplete="off"
            value={value}
            isInvalid={Boolean(error)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => {
              form.clearErrors(name)
              set(e.target.value)
            }}
          />
        )
      )}
      {!reference && (
        <div className={allowUrl ? 'mt-2' : undefined}>
          {allowUrl && (
            <Form.Label htmlFor={fileId} className="small text-body-secondary mb-1">
              o sube un archivo
            </Form.Label>
          )}
          <Form.Control
            ref={fileInput}
            id={fileId}
            type="file"
            accept={UPLOAD_ACCEPT}
            disabled={uploading}
            isInvalid={Boolean(error) && !allowUrl}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => void choose((e.target as HTMLInputElement).files?.[0])}
          />
        </div>
      )}
      {uploading && (
        <div role="status" className="small text-body-secondary mt-1">
          <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
          Subiendo…
        </div>
      )}
      {error?.message ? (
        <div id={errorId} className="invalid-feedback d-block">
          {error.message}
        </div>
      ) : (
        <Form.Text className="d-block">{help ?? 'PDF, Word (.doc, .docx), JPG o PNG, hasta 10 MB.'}</Form.Text>
      )}
    </Form.Group>
  )
}
