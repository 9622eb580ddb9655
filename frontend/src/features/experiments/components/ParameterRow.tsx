// One row of the factor or fixed-value editor: the value input, its range, remove, its 422.
import type { ParameterPublic } from "@/api";
import { FieldError } from "@/components/common/FieldError";
import { describeRange } from "../utils/designForm";

/** Props of ParameterRow. */
export interface ParameterRowProps {
  name: string;
  /** The declared parameter, or undefined for a name the schema does not know. */
  parameter: ParameterPublic | undefined;
  value: string;
  inputName: string;
  inputLabel: string;
  /** Appended to the range hint, e.g. "comma separated". */
  hintSuffix?: string;
  removeLabel: string;
  error: string | undefined;
  errorTestId: string;
  onValue: (value: string) => void;
  onRemove: () => void;
}

export function ParameterRow(props: ParameterRowProps) {
  const { name, parameter, value, error, onValue, onRemove } = props;
  const range = parameter ? describeRange(parameter) : "unknown parameter";
  return (
    <div className="param-row">
      <label>
        <span className="param-name" title={`${name}: ${parameter?.description ?? ""}`}>
          {parameter?.label ?? name}
        </span>
        <input
          name={props.inputName}
          aria-label={props.inputLabel}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          aria-invalid={Boolean(error)}
        />
      </label>
      <span className="hint">{props.hintSuffix ? `${range}; ${props.hintSuffix}` : range}</span>
      <button type="button" className="link" aria-label={props.removeLabel} onClick={onRemove}>
        Remove
      </button>
      <FieldError message={error} testId={props.errorTestId} />
    </div>
  );
}
