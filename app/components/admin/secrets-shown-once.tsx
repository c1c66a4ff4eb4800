import type { ReactNode } from "react";
import { inputStyles } from "~/components/ui/styles";

export interface SecretRow {
  id: string;
  label: string;
  value: string;
}

/**
 * Secrets the blog keeps only sealed or hashed (an app's keys, a webhook's signing secret): shown
 * once, right after they are made, each in a read-only field to select and copy, and announced.
 */
export function SecretsShownOnce({ intro, rows }: { intro: ReactNode; rows: readonly SecretRow[] }) {
  return (
    <div role="status" className="space-y-3">
      <p className="text-sm">{intro}</p>
      {rows.map((row) => (
        <div key={row.id} className="space-y-1">
          <label htmlFor={row.id} className="block text-sm font-medium">
            {row.label}
          </label>
          <input id={row.id} readOnly value={row.value} className={`${inputStyles} font-mono text-sm`} />
        </div>
      ))}
    </div>
  );
}
