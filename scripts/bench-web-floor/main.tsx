// The framework floor of `npm run bench:web` (scripts/bench-web.mjs): React and React DOM, built by Vite as the app
// is, rendering one heading. What a screen costs beyond this page is ours.
import { createRoot } from 'react-dom/client'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <main>
    <h1>Solo React</h1>
    <p>React y React DOM, construidos como la aplicación, con un título y nada más.</p>
  </main>,
)
