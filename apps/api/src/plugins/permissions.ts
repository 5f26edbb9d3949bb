import { type Action, AppError, can, permissionMessages, type Resource } from '@vb/shared'
import type { FastifyRequest } from 'fastify'
import { actorOf } from './auth'

/**
 * preValidation hook enforcing the role matrix of SPEC §6 (shared `can`, the same rule the UI uses to hide
 * buttons). Which records the role reaches is decided by each service's queries.
 */
export function requirePermission(resource: Resource, action: Action, message: string = permissionMessages.generic) {
  return async (request: FastifyRequest) => {
    if (!can(actorOf(request), resource, action)) throw new AppError('FORBIDDEN', message)
  }
}
