/** What the shell's tests share: a logged-in worker as the server gives it, and a JSON answer as the API sends it. */
export const trabajadorAna = {
  id: 7,
  email: 'ana@demo.es',
  nombre: 'Ana',
  apellidos: 'Pérez',
  rol: 'ADMIN',
  activo: true,
  passwordTemporal: false,
  empresas: [{ id: 1, nombre: 'Hogares' }],
}

/** A JSON answer; `total` goes in `X-Total-Count`, as a list's does. */
export const jsonResponse = (body: unknown, status = 200, total?: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...(total === undefined ? {} : { 'X-Total-Count': String(total) }) },
  })
