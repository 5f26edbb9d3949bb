import arrowClockwise from 'bootstrap-icons/icons/arrow-clockwise.svg?raw'
import arrowDownUp from 'bootstrap-icons/icons/arrow-down-up.svg?raw'
import arrowLeft from 'bootstrap-icons/icons/arrow-left.svg?raw'
import bell from 'bootstrap-icons/icons/bell.svg?raw'
import boxArrowRight from 'bootstrap-icons/icons/box-arrow-right.svg?raw'
import building from 'bootstrap-icons/icons/building.svg?raw'
import calendarCheck from 'bootstrap-icons/icons/calendar-check.svg?raw'
import calendarEvent from 'bootstrap-icons/icons/calendar-event.svg?raw'
import calendar3 from 'bootstrap-icons/icons/calendar3.svg?raw'
import cashCoin from 'bootstrap-icons/icons/cash-coin.svg?raw'
import checkCircle from 'bootstrap-icons/icons/check-circle.svg?raw'
import checkCircleFill from 'bootstrap-icons/icons/check-circle-fill.svg?raw'
import check2Circle from 'bootstrap-icons/icons/check2-circle.svg?raw'
import chevronDown from 'bootstrap-icons/icons/chevron-down.svg?raw'
import chevronLeft from 'bootstrap-icons/icons/chevron-left.svg?raw'
import chevronRight from 'bootstrap-icons/icons/chevron-right.svg?raw'
import chevronUp from 'bootstrap-icons/icons/chevron-up.svg?raw'
import clipboard from 'bootstrap-icons/icons/clipboard.svg?raw'
import clipboardCheck from 'bootstrap-icons/icons/clipboard-check.svg?raw'
import clock from 'bootstrap-icons/icons/clock.svg?raw'
import download from 'bootstrap-icons/icons/download.svg?raw'
import envelopeCheck from 'bootstrap-icons/icons/envelope-check.svg?raw'
import exclamationTriangle from 'bootstrap-icons/icons/exclamation-triangle.svg?raw'
import exclamationTriangleFill from 'bootstrap-icons/icons/exclamation-triangle-fill.svg?raw'
import eye from 'bootstrap-icons/icons/eye.svg?raw'
import eyeSlash from 'bootstrap-icons/icons/eye-slash.svg?raw'
import fileEarmarkArrowDown from 'bootstrap-icons/icons/file-earmark-arrow-down.svg?raw'
import fileEarmarkBarGraph from 'bootstrap-icons/icons/file-earmark-bar-graph.svg?raw'
import fileEarmarkPdf from 'bootstrap-icons/icons/file-earmark-pdf.svg?raw'
import fileEarmarkSpreadsheet from 'bootstrap-icons/icons/file-earmark-spreadsheet.svg?raw'
import filetypeHtml from 'bootstrap-icons/icons/filetype-html.svg?raw'
import folder2Open from 'bootstrap-icons/icons/folder2-open.svg?raw'
import funnel from 'bootstrap-icons/icons/funnel.svg?raw'
import gear from 'bootstrap-icons/icons/gear.svg?raw'
import houseDoor from 'bootstrap-icons/icons/house-door.svg?raw'
import houseHeart from 'bootstrap-icons/icons/house-heart.svg?raw'
import houseHeartFill from 'bootstrap-icons/icons/house-heart-fill.svg?raw'
import infoCircle from 'bootstrap-icons/icons/info-circle.svg?raw'
import journalText from 'bootstrap-icons/icons/journal-text.svg?raw'
import key from 'bootstrap-icons/icons/key.svg?raw'
import list from 'bootstrap-icons/icons/list.svg?raw'
import listCheck from 'bootstrap-icons/icons/list-check.svg?raw'
import paperclip from 'bootstrap-icons/icons/paperclip.svg?raw'
import pencil from 'bootstrap-icons/icons/pencil.svg?raw'
import people from 'bootstrap-icons/icons/people.svg?raw'
import personBadge from 'bootstrap-icons/icons/person-badge.svg?raw'
import personCircle from 'bootstrap-icons/icons/person-circle.svg?raw'
import personLinesFill from 'bootstrap-icons/icons/person-lines-fill.svg?raw'
import personVcard from 'bootstrap-icons/icons/person-vcard.svg?raw'
import plug from 'bootstrap-icons/icons/plug.svg?raw'
import plusLg from 'bootstrap-icons/icons/plus-lg.svg?raw'
import save from 'bootstrap-icons/icons/save.svg?raw'
import search from 'bootstrap-icons/icons/search.svg?raw'
import shield from 'bootstrap-icons/icons/shield.svg?raw'
import shieldCheck from 'bootstrap-icons/icons/shield-check.svg?raw'
import shieldExclamation from 'bootstrap-icons/icons/shield-exclamation.svg?raw'
import shieldX from 'bootstrap-icons/icons/shield-x.svg?raw'
import signpostSplit from 'bootstrap-icons/icons/signpost-split.svg?raw'
import sliders from 'bootstrap-icons/icons/sliders.svg?raw'
import sortAlphaDown from 'bootstrap-icons/icons/sort-alpha-down.svg?raw'
import sortAlphaUpAlt from 'bootstrap-icons/icons/sort-alpha-up-alt.svg?raw'
import threeDotsVertical from 'bootstrap-icons/icons/three-dots-vertical.svg?raw'
import trash from 'bootstrap-icons/icons/trash.svg?raw'
import upload from 'bootstrap-icons/icons/upload.svg?raw'
import xCircle from 'bootstrap-icons/icons/x-circle.svg?raw'
import xOctagon from 'bootstrap-icons/icons/x-octagon.svg?raw'
import { type Shape, SvgIcon, shapesOf } from './icon-core'

/**
 * The Bootstrap Icons the screens use, and only those (the icon font carried about 2,000). Each is the
 * bootstrap-icons package's own SVG, inlined into the bundle by the build (`?raw`). To use another icon, import
 * its file here: `IconName` then accepts it.
 */
const svgs = {
  download,
  paperclip,
  'shield-check': shieldCheck,
  'shield-exclamation': shieldExclamation,
  'shield-x': shieldX,
  shield,
  upload,
  'file-earmark-arrow-down': fileEarmarkArrowDown,
  'x-circle': xCircle,
  'arrow-clockwise': arrowClockwise,
  'arrow-down-up': arrowDownUp,
  'arrow-left': arrowLeft,
  bell,
  'box-arrow-right': boxArrowRight,
  building,
  'calendar-check': calendarCheck,
  'calendar-event': calendarEvent,
  calendar3,
  'cash-coin': cashCoin,
  'check-circle': checkCircle,
  'check-circle-fill': checkCircleFill,
  'check2-circle': check2Circle,
  clock,
  'chevron-down': chevronDown,
  'chevron-left': chevronLeft,
  'chevron-right': chevronRight,
  'chevron-up': chevronUp,
  'envelope-check': envelopeCheck,
  'exclamation-triangle': exclamationTriangle,
  'exclamation-triangle-fill': exclamationTriangleFill,
  eye,
  'eye-slash': eyeSlash,
  'file-earmark-bar-graph': fileEarmarkBarGraph,
  'file-earmark-pdf': fileEarmarkPdf,
  'file-earmark-spreadsheet': fileEarmarkSpreadsheet,
  'filetype-html': filetypeHtml,
  'folder2-open': folder2Open,
  funnel,
  gear,
  'house-door': houseDoor,
  'house-heart': houseHeart,
  'house-heart-fill': houseHeartFill,
  'info-circle': infoCircle,
  'journal-text': journalText,
  list,
  'list-check': listCheck,
  pencil,
  people,
  'person-badge': personBadge,
  'person-circle': personCircle,
  'person-lines-fill': personLinesFill,
  'person-vcard': personVcard,
  plug,
  'plus-lg': plusLg,
  save,
  search,
  'signpost-split': signpostSplit,
  sliders,
  'sort-alpha-down': sortAlphaDown,
  'sort-alpha-up-alt': sortAlphaUpAlt,
  'three-dots-vertical': threeDotsVertical,
  trash,
  'x-octagon': xOctagon,
  clipboard,
  'clipboard-check': clipboardCheck,
  key,
}

export type IconName = keyof typeof svgs

const shapes = Object.fromEntries(Object.entries(svgs).map(([name, svg]) => [name, shapesOf(svg)])) as Record<IconName, Shape[]>
export const iconNames = Object.keys(svgs) as IconName[]

interface IconProps {
  name: IconName
  /** Extra classes, e.g. 'me-2' or 'fs-5': the icon is 1em square in the current colour, like the icon font was. */
  className?: string
}

/** A decorative Bootstrap Icon, hidden from assistive technology: the control around it carries the words. */
export function Icon({ name, className }: IconProps) {
  return <SvgIcon name={name} shapes={shapes[name]} className={className} />
}
