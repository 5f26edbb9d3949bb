import { api } from './api-client'

type Query = Parameters<typeof api.download>[1]

/**
 * Fetches a file the API generates (with the token, which a plain link cannot carry) and hands it to the
 * browser as a download named as the server says, or `fallbackName`.
 */
export async function downloadFile(path: string, query: Query, fallbackName: string): Promise<void> {
  const file = await api.download(path, query)
  const url = URL.createObjectURL(file.blob)
  const link = document.createElement('a')
  link.href = url
  link.download = file.filename ?? fallbackName
  document.body.append(link)
  link.click()
  link.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
