/** `PLUGBOARD_<TYPE>_<setting>`: the deployment variables per connector type, the type upper-cased with every other character an underscore. */
export function typeVariable(type: string, setting: 'BASE_URL' | 'AUTHORIZE_URL' | 'TOKEN_URL'): string {
  return `PLUGBOARD_${type.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${setting}`;
}
