import type { ControlProps } from "./field";
import { inputStyles } from "./styles";
import { PASSWORD_MAX } from "#domain/account.ts";

interface PasswordInputProps extends ControlProps {
  name: string;
  autoComplete: "current-password" | "new-password";
  ref?: React.Ref<HTMLInputElement>;
}

/** Every password box: the same limit, and the browser's password manager told what it holds. */
export function PasswordInput(props: PasswordInputProps) {
  return <input {...props} type="password" maxLength={PASSWORD_MAX} className={inputStyles} />;
}
