import { createBrowserRouter, type RouteObject } from 'react-router'
import { CambiarPasswordConActualPage } from '../features/auth/cambiar-password-con-actual-page'
import { CambiarPasswordPage } from '../features/auth/cambiar-password-page'
import { LoginPage } from '../features/auth/login-page'
import { RecuperarPasswordPage } from '../features/auth/recuperar-password-page'
import { ConfiguracionPage } from '../features/configuracion/configuracion-page'
import { ContactosPage } from '../features/contactos/contactos-page'
import { EmpresasPage } from '../features/empresas/empresas-page'
import { InformesPage } from '../features/informes/informes-page'
import { InicioPage } from '../features/inicio/inicio-page'
import { IntegracionesPage } from '../features/integraciones/integraciones-page'
import { UsuariosPage } from '../features/usuarios/usuarios-page'
import { ViviendasPage } from '../features/viviendas/viviendas-page'
import { RequireListPermission, RequirePasswordChanged, RequireToken } from './guards'
import { Shell } from './layout/shell'
import { NotFoundPage } from './not-found-page'
import { paths } from './paths'
import { RootLayout, RouteError } from './root-layout'

/** Screens owned by later issues: until they land the shell shows only their title. */
const Pendiente = () => null

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.login, element: <LoginPage /> },
      { path: paths.recuperar, element: <RecuperarPasswordPage /> },
      {
        element: <RequireToken />,
        children: [
          { path: paths.cambiarPassword, element: <CambiarPasswordPage /> },
          {
            element: <RequirePasswordChanged />,
            children: [
              { path: paths.cambiarPasswordConActual, element: <CambiarPasswordConActualPage /> },
              {
                element: <Shell />,
                children: [
                  { path: paths.inicio, element: <InicioPage /> },
                  { path: paths.empresas, element: <EmpresasPage /> },
                  { path: paths.viviendas, element: <ViviendasPage /> },
                  { path: paths.usuarios, element: <UsuariosPage /> },
                  { path: paths.contactos, element: <ContactosPage /> },
                  { path: '/documentacion/:nif', element: <Pendiente /> },
                  { path: '/caja/:nif', element: <Pendiente /> },
                  { path: paths.informes, element: <InformesPage /> },
                  { path: paths.planing, element: <Pendiente /> },
                  { path: paths.configuracion, element: <ConfiguracionPage /> },
                  {
                    element: <RequireListPermission resource="trabajadores" />,
                    children: [{ path: paths.trabajadores, element: <Pendiente /> }],
                  },
                  {
                    element: <RequireListPermission resource="logs" />,
                    children: [{ path: paths.logs, element: <Pendiente /> }],
                  },
                  { path: paths.tareas, element: <Pendiente /> },
                  { path: paths.presupuestos, element: <Pendiente /> },
                  { path: paths.integraciones, element: <IntegracionesPage /> },
                  { path: paths.fichaTrabajador, element: <Pendiente /> },
                  { path: paths.configuracionUsuario, element: <Pendiente /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage />, handle: { title: 'Página no encontrada' } },
    ],
  },
]

export const router = createBrowserRouter(routes)
