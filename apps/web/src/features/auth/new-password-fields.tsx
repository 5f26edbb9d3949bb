import { passwordMessages } from '@vb/shared/auth-core'
import Button from 'react-bootstrap/Button'
import Spinner from 'react-bootstrap/Spinner'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { PasswordField } from '../../components/password-field'

interface Props {
  idPrefix: string
  nueva: UseFormRegisterReturn
  confirmar: UseFormRegisterReturn
  errors: { passwordNueva?: string; confirmar?: string }
  /** SPEC §2.19 says 'Confirmar nueva contraseña'; §2.18 and the reset page 'Confirmar contraseña'. */
  confirmLabel?: string
  autoFocus?: boolean
  busy: boolean
  disabled?: boolean
}

/** The new password, its confirmation (SPEC §2.18 hint) and 'Guardar contraseña', shared by the three password screens. */
export function NewPasswordFields({ idPrefix, nueva, confirmar, errors, confirmLabel, autoFocus, busy, disabled }: Props) {
  return (
    <>
      <PasswordField
        id={`${idPrefix}-nueva`}
        label="Nueva contraseña"
        autoComplete="new-password"
        autoFocus={autoFocus}
        hint={passwordMessages.hint}
        error={errors.passwordNueva}
        registration={nueva}
      />
      <PasswordField
        id={`${idPrefix}-confirmar`}
        label={confirmLabel ?? 'Confirmar contraseña'}
        autoComplete="new-password"
        error={errors.confirmar}
        registration={confirmar}
      />
      <Button type="submit" className="w-100 mt-2" size="lg" disabled={busy || disabled}>
        {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Guardar contraseña
      </Button>
    </>
  )
}
