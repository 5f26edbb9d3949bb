/** DECISIONS D10: es-ES dates in Europe/Madrid and es-ES euros, from the shared contract. */
export {
  formatDate,
  formatDateMedium,
  formatDateTime,
  formatDateTimeSeconds,
  madridDay,
  TIME_ZONE,
} from '@vb/shared/dates'
export { formatCount, formatMoney } from '@vb/shared/money'
