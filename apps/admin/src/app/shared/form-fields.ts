import { ReactiveFormsModule } from '@angular/forms';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { FieldErrorsComponent } from './field-errors.component';

/**
 * What a component imports to write a reactive form's text fields: the form directives, Material's form field and
 * input, and <sc-field-errors> for the validator messages. Selects, checkboxes and toggles are imported beside it
 * where a form has them.
 */
export const FORM_FIELDS = [ReactiveFormsModule, MatFormFieldModule, MatInputModule, FieldErrorsComponent] as const;
