import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Empresa } from '@vb/shared'
import { useEffect, useId, useState } from 'react'
import Dropdown from 'react-bootstrap/Dropdown'
import Form from 'react-bootstrap/Form'
import { Icon } from '../../components/icon'
import { ApiError, api } from '../../lib/api-client'
import { session } from '../../lib/session'
import { useEmpresa } from '../../lib/use-empresa'
import { useTrabajador } from '../../lib/use-session'

const TODAS = 'Todas mis empresas'
/** Companies listed at once; past that, the search box finds the rest on the server. */
const SWITCHER_PAGE = 50

/**
 * SPEC §2.2 / DECISIONS D1: the company switcher. GET /api/empresas is already scoped by role (all for
 * SUPERADMIN, own companies otherwise). The choice is stored as `empresa` and announced with
 * 'empresa-cambiada' by session.setEmpresa; null means all of the worker's companies.
 */
export function CompanySwitcher() {
  const trabajador = useTrabajador()
  const selected = useEmpresa()
  const searchId = useId()
  const [q, setQ] = useState('')
  const empresas = useQuery({
    queryKey: ['empresas', 'switcher', trabajador?.id, { q }],
    queryFn: () => api.list<Empresa>('/empresas', { q, sort: 'nombre', order: 'asc', pageSize: SWITCHER_PAGE }),
    enabled: Boolean(trabajador),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  })

  // The stored selection is checked against the companies the worker may see, at every start and after every change
  // of companies (both queries live under 'empresas', which changes refresh): a company deleted or no longer reachable
  // falls back to 'Todas mis empresas', a renamed one takes its new name. The switcher's own list answers that when it
  // holds the company, or holds every company the worker may see; only past its first page is the company asked for
  // (a start with one call, and one render, less).
  const firstPage = !q && empresas.isSuccess && !empresas.isPlaceholderData ? empresas.data : undefined
  const listed = firstPage && selected ? firstPage.items.find((e) => e.id === selected.id) : undefined
  const complete = firstPage ? firstPage.items.length >= firstPage.total : false
  const check = useQuery({
    queryKey: ['empresas', 'seleccionada', selected?.id],
    queryFn: () => api.get<Empresa>(`/empresas/${selected?.id}`),
    enabled: Boolean(trabajador && selected && firstPage && !listed && !complete),
    retry: false,
  })
  useEffect(() => {
    if (!selected || !firstPage) return
    const found = listed ?? (complete ? undefined : check.data)
    if (found && found.nombre !== selected.nombre) session.setEmpresa(found)
    else if (!listed && (complete || (check.error instanceof ApiError && check.error.statusCode === 404)))
      session.setEmpresa(null)
  }, [selected, firstPage, listed, complete, check.data, check.error])

  // SPEC §3: `empresas` is kept in storage for SUPERADMIN only (session.start removes it for the others).
  useEffect(() => {
    if (trabajador?.rol === 'SUPERADMIN' && empresas.data && !q) {
      localStorage.setItem('empresas', JSON.stringify(empresas.data.items.map((e) => ({ id: e.id, nombre: e.nombre }))))
    }
  }, [trabajador?.rol, empresas.data, q])

  const nombre = selected?.nombre ?? TODAS
  const many = (empresas.data?.total ?? 0) > 8 || q !== ''
  return (
    <Dropdown className="empresa-switcher" onToggle={(open) => !open && setQ('')}>
      <Dropdown.Toggle
        variant="light"
        className="empresa-toggle border d-flex align-items-center gap-2"
        aria-label={`Empresa: ${nombre}`}
        title={nombre}
      >
        <Icon name="building" />
        <span className="nombre">{nombre}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow-sm empresa-menu">
        {/* Not Dropdown.Header: its role="heading" has no level (axe aria-required-attr). */}
        <div className="dropdown-header">Cambiar de empresa</div>
        {many && (
          <div className="px-3 pb-2">
            <Form.Label htmlFor={searchId} className="visually-hidden">
              Buscar empresa
            </Form.Label>
            <Form.Control
              id={searchId}
              size="sm"
              type="search"
              placeholder="Buscar empresa"
              autoComplete="off"
              value={q}
              onChange={(e) => setQ(e.target.value)}
            />
          </div>
        )}
        {/* `active` goes in as a class: the prop would add aria-selected, which a button may not carry. */}
        <ul className="empresa-list list-unstyled mb-0" aria-label="Empresas disponibles">
          <li>
            <Dropdown.Item
              as="button"
              className={!selected ? 'active' : undefined}
              aria-current={!selected ? 'true' : undefined}
              onClick={() => session.setEmpresa(null)}
            >
              {TODAS}
            </Dropdown.Item>
          </li>
          {empresas.data?.items.map((empresa) => {
            const active = selected?.id === empresa.id
            return (
              <li key={empresa.id}>
                <Dropdown.Item
                  as="button"
                  className={active ? 'active text-break' : 'text-break'}
                  aria-current={active ? 'true' : undefined}
                  onClick={() => session.setEmpresa(empresa)}
                >
                  {empresa.nombre}
                </Dropdown.Item>
              </li>
            )
          })}
        </ul>
        {empresas.isPending && <Dropdown.ItemText className="text-body-secondary">Cargando...</Dropdown.ItemText>}
        {empresas.isError && <Dropdown.ItemText className="text-danger">No se pudieron cargar las empresas.</Dropdown.ItemText>}
      </Dropdown.Menu>
    </Dropdown>
  )
}
