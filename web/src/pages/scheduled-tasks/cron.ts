/**
 * The cron builder's model: the common shapes of a schedule (every N minutes, hourly, daily,
 * weekly, monthly) as a 5-field expression, and back; anything else is edited as an expression.
 */
export type CronShape =
  | { kind: 'minutes'; every: number }
  | { kind: 'hourly'; minute: number }
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; weekday: number; hour: number; minute: number }
  | { kind: 'monthly'; day: number; hour: number; minute: number }
  | { kind: 'custom'; expression: string };

export function cronOf(shape: CronShape): string {
  switch (shape.kind) {
    case 'minutes':
      return `*/${shape.every} * * * *`;
    case 'hourly':
      return `${shape.minute} * * * *`;
    case 'daily':
      return `${shape.minute} ${shape.hour} * * *`;
    case 'weekly':
      return `${shape.minute} ${shape.hour} * * ${shape.weekday}`;
    case 'monthly':
      return `${shape.minute} ${shape.hour} ${shape.day} * *`;
    case 'custom':
      return shape.expression.trim();
  }
}

const number = (field: string, min: number, max: number): number | null => {
  if (!/^\d{1,2}$/.test(field)) return null;
  const value = Number(field);
  return value >= min && value <= max ? value : null;
};

/** The builder shape an expression has, or `custom` when it is none of the common ones. */
export function shapeOf(expression: string): CronShape {
  const fields = expression.trim().split(/\s+/);
  const custom: CronShape = { kind: 'custom', expression: expression.trim() };
  if (fields.length !== 5) return custom;
  const [m, h, dom, mon, dow] = fields as [string, string, string, string, string];
  if (mon !== '*') return custom;
  const every = /^\*\/(\d{1,2})$/.exec(m);
  if (every && h === '*' && dom === '*' && dow === '*') {
    const n = number(every[1]!, 1, 59);
    return n === null ? custom : { kind: 'minutes', every: n };
  }
  const minute = number(m, 0, 59);
  if (minute === null) return custom;
  if (h === '*' && dom === '*' && dow === '*') return { kind: 'hourly', minute };
  const hour = number(h, 0, 23);
  if (hour === null) return custom;
  if (dom === '*' && dow === '*') return { kind: 'daily', hour, minute };
  if (dom === '*') {
    const weekday = number(dow, 0, 6);
    return weekday === null ? custom : { kind: 'weekly', weekday, hour, minute };
  }
  if (dow === '*') {
    const day = number(dom, 1, 31);
    return day === null ? custom : { kind: 'monthly', day, hour, minute };
  }
  return custom;
}
