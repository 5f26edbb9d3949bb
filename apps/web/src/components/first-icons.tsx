import checkCircle from 'bootstrap-icons/icons/check-circle.svg?raw'
import exclamationTriangle from 'bootstrap-icons/icons/exclamation-triangle.svg?raw'
import exclamationTriangleFill from 'bootstrap-icons/icons/exclamation-triangle-fill.svg?raw'
import eye from 'bootstrap-icons/icons/eye.svg?raw'
import eyeSlash from 'bootstrap-icons/icons/eye-slash.svg?raw'
import houseHeartFill from 'bootstrap-icons/icons/house-heart-fill.svg?raw'
import signpostSplit from 'bootstrap-icons/icons/signpost-split.svg?raw'
import { SvgIcon, shapesOf } from './icon-core'

/**
 * The icons of what the first screen loads (the login page, the toasts, the not-found page, and the components
 * they share with the shell): only these come with it.
 */
const firstShapes = {
  eye: shapesOf(eye),
  'eye-slash': shapesOf(eyeSlash),
  'exclamation-triangle-fill': shapesOf(exclamationTriangleFill),
  'house-heart-fill': shapesOf(houseHeartFill),
  'check-circle': shapesOf(checkCircle),
  'exclamation-triangle': shapesOf(exclamationTriangle),
  'signpost-split': shapesOf(signpostSplit),
}

export type FirstIconName = keyof typeof firstShapes

/** One of the login page's icons, drawn like `Icon`. */
export function FirstIcon({ name, className }: { name: FirstIconName; className?: string }) {
  return <SvgIcon name={name} shapes={firstShapes[name]} className={className} />
}
