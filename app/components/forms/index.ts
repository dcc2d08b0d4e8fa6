// The pieces every form is built from (docs/decisions/0820-conform-form-pattern.md).
export { ErrorList, FormErrors } from "./error-list";
export { CheckboxField, Field, InputField, SelectField, TextareaField, fieldAria, type FieldMeta } from "./field";
export { MONEY_HINT, MoneyField, MoneyInput } from "./money-field";
export { SubmitButton } from "./submit-button";
export { ConfirmFooter } from "./confirm-footer";
export { OneTimeCodeField } from "./one-time-code-field";
export { useChoiceSearch } from "./choice-search";
