/**
 * How an icon is drawn: a bootstrap-icons file's paths on its 16 × 16 grid, as an inline SVG in the current
 * colour. The full set is `icon.tsx`; the login page draws its few icons from `first-icons.tsx`, so the first
 * screen does not download every icon of the app.
 */
export interface Shape {
  d: string
  fillRule?: 'evenodd'
}

const pathTag = /<path\b([^>]*)\/?>/g
const attribute = (attrs: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1]

/** The shapes of an icon: every bootstrap-icons file is paths on a 16 × 16 grid. */
export function shapesOf(svg: string): Shape[] {
  const shapes: Shape[] = []
  for (const [, attrs = ''] of svg.matchAll(pathTag)) {
    const d = attribute(attrs, 'd')
    if (d) shapes.push(attribute(attrs, 'fill-rule') === 'evenodd' ? { d, fillRule: 'evenodd' } : { d })
  }
  return shapes
}

/** A decorative icon, hidden from assistive technology: the control around it carries the words. */
export function SvgIcon({ name, shapes, className }: { name: string; shapes: Shape[]; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      fill="currentColor"
      className={className ? `bi bi-${name} ${className}` : `bi bi-${name}`}
      aria-hidden="true"
      focusable="false"
    >
      {shapes.map((shape) => (
        <path key={shape.d} d={shape.d} fillRule={shape.fillRule} />
      ))}
    </svg>
  )
}
