// Shared class names, so buttons and links that look like buttons stay consistent.
const base =
  "inline-flex items-center justify-center gap-2 rounded-md px-3.5 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50";

export const buttonClass = {
  primary: `${base} bg-brand-600 text-white shadow-sm hover:bg-brand-700`,
  secondary: `${base} border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50`,
  danger: `${base} bg-red-600 text-white shadow-sm hover:bg-red-700`,
  ghost: `${base} text-slate-600 hover:bg-slate-100 hover:text-slate-900`,
};
