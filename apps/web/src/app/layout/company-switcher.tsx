import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import Dropdown from 'react-bootstrap/Dropdown'
import { fetchMisEmpresas } from '../../lib/empresas'
import { session } from '../../lib/session'
import { useEmpresa } from '../../lib/use-empresa'
import { useTrabajador } from '../../lib/use-session'

const TODAS = 'Todas mis empresas'

/**
 * SPEC §2.2 / DECISIONS D1: the company switcher. GET /api/empresas is already scoped by role (all for
 * SUPERADMIN, own companies otherwise). The choice is stored as `empresa` and announced with
 * 'empresa-cambiada' by session.setEmpresa; null means all of the worker's companies.
 */
export function CompanySwitcher() {
  const trabajador = useTrabajador()
  const selected = useEmpresa()
  const empresas = useQuery({
    queryKey: ['empresas', 'switcher', trabajador?.id],
    queryFn: fetchMisEmpresas,
    enabled: Boolean(trabajador),
    staleTime: 5 * 60_000,
  })
  const nombre = selected?.nombre ?? TODAS

  // SPEC §3: `empresas` is kept in storage for SUPERADMIN only (session.start removes it for the others).
  useEffect(() => {
    if (trabajador?.rol === 'SUPERADMIN' && empresas.data) {
      localStorage.setItem('empresas', JSON.stringify(empresas.data.map((e) => ({ id: e.id, nombre: e.nombre }))))
    }
  }, [trabajador?.rol, empresas.data])

  return (
    <Dropdown className="empresa-switcher">
      <Dropdown.Toggle
        variant="light"
        className="empresa-toggle border d-flex align-items-center gap-2"
        aria-label={`Empresa: ${nombre}`}
      >
        <i className="bi bi-building" aria-hidden="true" />
        <span className="nombre">{nombre}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow-sm" style={{ minWidth: '16rem' }}>
        {/* Not Dropdown.Header: its role="heading" has no level (axe aria-required-attr). */}
        <div className="dropdown-header">Cambiar de empresa</div>
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
          {empresas.data?.map((empresa) => {
            const active = selected?.id === empresa.id
            return (
              <li key={empresa.id}>
                <Dropdown.Item
                  as="button"
                  className={active ? 'active' : undefined}
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
