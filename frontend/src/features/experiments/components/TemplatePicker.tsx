// Picks a catalogue entry; picking one seeds factors, fixed values and run settings.
import type { Template, TemplatePublic } from "@/api";

/** Props of TemplatePicker. */
export interface TemplatePickerProps {
  templates: TemplatePublic[];
  value: Template;
  onPick: (template: TemplatePublic) => void;
}

export function TemplatePicker({ templates, value, onPick }: TemplatePickerProps) {
  const current = templates.find((t) => t.id === value);
  return (
    <fieldset>
      <legend>Template</legend>
      <label>
        Start from
        <select
          name="template"
          value={value}
          onChange={(e) => {
            const t = templates.find((x) => x.id === e.target.value);
            if (t) onPick(t);
          }}
        >
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
      </label>
      {current && current.measured.length > 0 && (
        <p className="hint">Measures: {current.measured.join(", ")}</p>
      )}
    </fieldset>
  );
}
