import { createBrowserRouter, type RouteObject } from 'react-router'
import { LoginPage } from '../features/auth/login-page'
import { RequireListPermission, RequirePasswordChanged, RequireToken } from './guards'
import { NotFoundPage } from './not-found-page'
import { RootLayout, RouteError } from './root-layout'
import { type Screen, screenList, screens } from './screens'

/** Screens owned by later work: until they land the shell shows only their title. */
const Pendiente = () => null

/**
 * The routes of the screens declared in screens.ts. Each screen's code (and the shell's) loads when its
 * route first opens, so the login page does not download the shell and the lists, and a list does not
 * download the other screens; the router keeps the current screen on view until the next one has loaded.
 * The login page is the exception: it is where every first visit lands, so it ships in the entry chunk and
 * paints without waiting for one more round trip (its form code is what the other forms use too).
 */
function routesOf(layout: NonNullable<Screen['layout']>): RouteObject[] {
  return screenList
    .filter((s) => (s.layout ?? 'shell') === layout && s.id !== 'login')
    .flatMap((s): RouteObject[] => {
      const load = s.load
      const route = load ? { lazy: async () => ({ Component: await load() }) } : { element: <Pendiente /> }
      const own: RouteObject[] = [s.path, ...(s.patterns ?? [])].map((path) => ({ path, ...route }))
      // SPEC §2.10, §2.11: a role that may not list the screen's resource is sent to /inicio.
      return s.resource ? [{ element: <RequireListPermission resource={s.resource} />, children: own }] : own
    })
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown only while the first screen of a visit loads (an empty page, as before the app starts).
    hydrateFallbackElement: <div className="min-vh-100" />,
    children: [
      { path: screens.login.path, Component: LoginPage },
      ...routesOf('public'),
      {
        element: <RequireToken />,
        children: [
          ...routesOf('token'),
          {
            element: <RequirePasswordChanged />,
            children: [
              ...routesOf('plain'),
              {
                lazy: async () => ({ Component: (await import('./layout/shell')).Shell }),
                children: routesOf('shell'),
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
