import type { ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { LoginPage } from '../features/auth/login-page'
import { RequireListPermission, RequirePasswordChanged, RequireToken } from './guards'
import { NotFoundPage } from './not-found-page'
import { paths } from './paths'
import { RootLayout, RouteError } from './root-layout'

/**
 * Issue 8 item 7: each screen's code (and the shell's) loads when its route first opens, so the login page
 * does not download the shell and the lists, and a list does not download the other screens. Vite makes one
 * chunk per `import()`; the router keeps the current screen on view until the next one has loaded.
 * The login page is the exception: it is where every first visit lands, so it ships in the entry chunk and
 * paints without waiting for one more round trip (issue 12; its form code is what the list screens' forms
 * use too, so a later screen finds it cached).
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => ({ Component: pick(await load()) })
}

/** Screens owned by later issues: until they land the shell shows only their title. */
const Pendiente = () => null

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown only while the first screen of a visit loads (an empty page, as before the app starts).
    hydrateFallbackElement: <div className="min-vh-100" />,
    children: [
      { path: paths.login, Component: LoginPage },
      {
        path: paths.recuperar,
        lazy: screen(
          () => import('../features/auth/recuperar-password-page'),
          (m) => m.RecuperarPasswordPage,
        ),
      },
      {
        element: <RequireToken />,
        children: [
          {
            path: paths.cambiarPassword,
            lazy: screen(
              () => import('../features/auth/cambiar-password-page'),
              (m) => m.CambiarPasswordPage,
            ),
          },
          {
            element: <RequirePasswordChanged />,
            children: [
              {
                path: paths.cambiarPasswordConActual,
                lazy: screen(
                  () => import('../features/auth/cambiar-password-con-actual-page'),
                  (m) => m.CambiarPasswordConActualPage,
                ),
              },
              {
                lazy: screen(
                  () => import('./layout/shell'),
                  (m) => m.Shell,
                ),
                children: [
                  {
                    path: paths.inicio,
                    lazy: screen(
                      () => import('../features/inicio/inicio-page'),
                      (m) => m.InicioPage,
                    ),
                  },
                  {
                    path: paths.empresas,
                    lazy: screen(
                      () => import('../features/empresas/empresas-page'),
                      (m) => m.EmpresasPage,
                    ),
                  },
                  {
                    path: paths.viviendas,
                    lazy: screen(
                      () => import('../features/viviendas/viviendas-page'),
                      (m) => m.ViviendasPage,
                    ),
                  },
                  {
                    path: paths.usuarios,
                    lazy: screen(
                      () => import('../features/usuarios/usuarios-page'),
                      (m) => m.UsuariosPage,
                    ),
                  },
                  {
                    path: paths.contactos,
                    lazy: screen(
                      () => import('../features/contactos/contactos-page'),
                      (m) => m.ContactosPage,
                    ),
                  },
                  // Without a NIF the screens say SPEC §8's 'Ruta inválida: falta el NIF.'.
                  ...['/documentacion', '/documentacion/:nif'].map((path) => ({
                    path,
                    lazy: screen(
                      () => import('../features/documentacion/documentacion-page'),
                      (m) => m.DocumentacionPage,
                    ),
                  })),
                  ...['/caja', '/caja/:nif'].map((path) => ({
                    path,
                    lazy: screen(
                      () => import('../features/caja/caja-page'),
                      (m) => m.CajaPage,
                    ),
                  })),
                  {
                    path: paths.informes,
                    lazy: screen(
                      () => import('../features/informes/informes-page'),
                      (m) => m.InformesPage,
                    ),
                  },
                  { path: paths.planing, element: <Pendiente /> },
                  {
                    path: paths.configuracion,
                    lazy: screen(
                      () => import('../features/configuracion/configuracion-page'),
                      (m) => m.ConfiguracionPage,
                    ),
                  },
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
                  {
                    path: paths.integraciones,
                    lazy: screen(
                      () => import('../features/integraciones/integraciones-page'),
                      (m) => m.IntegracionesPage,
                    ),
                  },
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
