import './bootstrap.scss'
import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { reloadOnNewVersion } from './app/new-version'
import { Providers } from './app/providers'
import { router } from './app/router'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// A screen whose code is gone because a new version was put on the server: the page reloads onto it.
reloadOnNewVersion()

createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
)
