// The main thread's long tasks of one Lighthouse run, by what they spent their time on: which part of a screen's
// start blocks a phone, read from the trace Lighthouse recorded (the score's blocking time is a simulation built on
// it, and moves with the machine; these figures say what to cut). Tasks and their nesting are Lighthouse's own
// (its trace processor), the kinds are ours: Lighthouse's 'Script Evaluation' puts a module graph evaluated (the
// code of a screen's files run once, zod's schemas built…) with every handler and render, which are different levers.
import { MainThreadTasks } from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js'
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js'

const KINDS = {
  modules: ['v8.evaluateModule', 'v8.compileModule', 'EvaluateScript', 'v8.compile', 'v8.produceModuleCache'],
  script: [
    'FunctionCall',
    'TimerFire',
    'FireIdleCallback',
    'FireAnimationFrame',
    'RunMicrotasks',
    'EventDispatch',
    'V8.Execute',
    'v8.callFunction',
    'XHRReadyStateChange',
    'XHRLoad',
  ],
  styleLayoutPaint: [
    'ScheduleStyleRecalculation',
    'UpdateLayoutTree',
    'InvalidateLayout',
    'Layout',
    'Paint',
    'PrePaint',
    'PaintImage',
    'Layerize',
    'Commit',
    'HitTest',
    'UpdateLayer',
    'UpdateLayerTree',
  ],
  // The document itself: the navigation's commit, its context, the HTML and the stylesheet parsed.
  document: [
    'ParseHTML',
    'ParseAuthorStyleSheet',
    'DocumentLoader::CommitNavigation',
    'LocalWindowProxy::CreateContext',
    'ContextCreatedNotification',
    'HTMLDocumentParser::MaybeFetchQueuedPreloads',
  ],
  gc: ['MinorGC', 'MajorGC', 'BlinkGC.AtomicPhase'],
}
const kindOf = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((n) => [n, kind])))

/**
 * The tasks that block at Lighthouse's CPU slowdown (at least 50 ms once multiplied: 12.5 ms at the mobile preset's 4×)
 * and, summed over them, the milliseconds (as traced, unthrottled) of each kind: each event's own time goes to the
 * kind of its nearest enclosing event that has one (a render inside a module's evaluation counts as the module's).
 */
export function longTasks(trace, cpuSlowdown) {
  const { mainThreadEvents, frames, timestamps } = TraceProcessor.processTrace(trace)
  const tasks = MainThreadTasks.getMainThreadTasks(mainThreadEvents, frames, timestamps.traceEnd, timestamps.timeOrigin)
  const threshold = 50 / cpuSlowdown
  const byKind = { modules: 0, script: 0, styleLayoutPaint: 0, document: 0, gc: 0, other: 0 }
  let count = 0
  let total = 0
  const visit = (task, inherited) => {
    const kind = kindOf.get(task.event.name) ?? inherited
    byKind[kind ?? 'other'] += task.selfTime
    for (const child of task.children) visit(child, kind)
  }
  for (const task of tasks) {
    if (task.parent || task.startTime < 0 || task.duration < threshold) continue
    count++
    total += task.duration
    visit(task, undefined)
  }
  const round = (ms) => Math.round(ms * 10) / 10
  return { count, ms: round(total), ...Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, round(v)])) }
}
