export function setSession(session: { token: string; trabajador: unknown; empresaId: number }): void
export function timeMonthSwitch(day: string): Promise<{ total: number; render: number; tasks: number; chips: number }>
