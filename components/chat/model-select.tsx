"use client";

export interface ModelOption {
  id: string;
  label: string;
  offline: boolean;
}

export function ModelSelect({
  models,
  value,
  onChange,
  disabled,
}: {
  models: ModelOption[];
  value: string;
  onChange: (id: string) => void;
  disabled: boolean;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
      <span className="max-sm:sr-only">Model</span>
      <select
        aria-label="Model"
        className="max-w-40 rounded-md border sm:max-w-none border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      >
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
          </option>
        ))}
      </select>
    </label>
  );
}
