import { render, screen } from '@testing-library/react';
import { act } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { TextField } from './TextField';

type Values = { email: string };
let setError: ((message: string) => void) | undefined;

function Harness() {
  const form = useForm<Values>({ defaultValues: { email: 'a@b.co' } });
  setError = (message) => form.setError('email', { type: 'server', message });
  return <TextField form={form} name="email" label="Email" type="email" placeholder="Email is required" />;
}

describe('TextField', () => {
  it('labels its input, binds the value and shows a message on the field', () => {
    render(<Harness />);
    const input = screen.getByLabelText('Email');
    expect(input).toHaveValue('a@b.co');
    expect(input).toHaveAttribute('placeholder', 'Email is required');
    expect(input).not.toHaveClass('is-invalid');
    act(() => setError?.('This e-mail address is already in use'));
    expect(input).toHaveClass('is-invalid');
    expect(screen.getByText('This e-mail address is already in use')).toBeInTheDocument();
  });
});
