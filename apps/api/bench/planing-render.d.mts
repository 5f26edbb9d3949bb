export function setSession(session: { token: string; trabajador: unknown; empresaId: number }): void
export function timeMonthSwitch(target: { day: string; title: string }): Promise<{ total: number; render: number; chips: number }>
