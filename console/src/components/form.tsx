// Form parts: every control has a visible label; its hint and its error message are tied to it
// with aria-describedby and aria-invalid, so a screen reader reads them on focus. Field errors
// come from the answer's problem+json (`errors[].path` /body/<field> → the field whose
// `pointer` is /<field>), see api/problem.ts and api/action.ts.
import type { ComponentChildren, InputHTMLAttributes, PartialInputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from "preact";
import { useId } from "preact/hooks";
import type { FieldErrors } from "../api/problem.ts";

/** The JSON Pointer of a dotted field name inside the body: "holder.id" → "/holder/id". */
export function pointerOf(name: string): string {
  return "/" + name.split(".").join("/");
}

interface FieldFrame {
  label: string;
  hint?: ComponentChildren;
  /** All field errors of the form; this field shows the one at its pointer. */
  errors?: FieldErrors;
  /** Body field name ("url", "holder.id"); its pointer keys `errors`. */
  name: string;
  required?: boolean;
}

function describedBy(id: string, hint: unknown, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

function Frame({ id, label, hint, error, required, children }: { id: string; label: string; hint?: ComponentChildren; error?: string; required?: boolean; children: ComponentChildren }) {
  return (
    <div class={`field${error ? " field-invalid" : ""}`}>
      <label for={id}>
        {label}
        {required ? <span class="required"> (required)</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} class="field-error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type InputProps = FieldFrame & Omit<PartialInputHTMLAttributes<HTMLInputElement>, "name" | "label" | "required" | "role">;

export function Field({ label, hint, errors, name, required, ...input }: InputProps) {
  const id = useId();
  const error = errors?.[pointerOf(name)];
  return (
    <Frame id={id} label={label} hint={hint} error={error} required={required}>
      {/* The partial attribute set (any type) for the discriminated union preact 11 declares per input type. */}
      <input {...(input as InputHTMLAttributes<HTMLInputElement>)} id={id} name={name} required={required} aria-invalid={error ? "true" : undefined} aria-describedby={describedBy(id, hint, error)} />
    </Frame>
  );
}

type TextAreaProps = FieldFrame & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "label" | "required" | "role">;

export function TextAreaField({ label, hint, errors, name, required, ...area }: TextAreaProps) {
  const id = useId();
  const error = errors?.[pointerOf(name)];
  return (
    <Frame id={id} label={label} hint={hint} error={error} required={required}>
      <textarea {...area} id={id} name={name} required={required} aria-invalid={error ? "true" : undefined} aria-describedby={describedBy(id, hint, error)} />
    </Frame>
  );
}

type SelectProps = FieldFrame &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "label" | "required" | "role"> & {
    options: ReadonlyArray<{ value: string; label: string }>;
    /** A first option meaning "none" (e.g. "Any"). */
    placeholder?: string;
  };

export function SelectField({ label, hint, errors, name, required, options, placeholder, ...select }: SelectProps) {
  const id = useId();
  const error = errors?.[pointerOf(name)];
  return (
    <Frame id={id} label={label} hint={hint} error={error} required={required}>
      <select {...select} id={id} name={name} required={required} aria-invalid={error ? "true" : undefined} aria-describedby={describedBy(id, hint, error)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
      </select>
    </Frame>
  );
}

/** A group of checkboxes (a set of enum values) in a fieldset with a legend. */
export function CheckboxGroup({
  legend,
  name,
  options,
  values,
  onChange,
  errors,
  hint,
}: {
  legend: string;
  name: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  values: readonly string[];
  onChange: (values: string[]) => void;
  errors?: FieldErrors;
  hint?: string;
}) {
  const id = useId();
  const error = errors?.[pointerOf(name)];
  return (
    <fieldset class={`field checkbox-group${error ? " field-invalid" : ""}`} aria-describedby={describedBy(id, hint, error)}>
      <legend>{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      {options.map((o) => (
        <label class="check">
          <input
            type="checkbox"
            name={name}
            value={o.value}
            checked={values.includes(o.value)}
            onChange={(e) => {
              const on = (e.currentTarget as HTMLInputElement).checked;
              onChange(on ? [...values, o.value] : values.filter((v) => v !== o.value));
            }}
          />
          {o.label}
        </label>
      ))}
      {error ? (
        <p id={`${id}-error`} class="field-error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The form-level outcome of a failed submit (an alert, read at once). */
export function FormSummary({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <div role="alert" class="notice notice-error">
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <ul>
          {messages.map((m) => (
            <li>{m}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
