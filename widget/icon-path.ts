/** Where the server serves a connector type's icon (its definition's, else a generic one): the page's template list asks for it there. */
export const ICONS_PATH = '/embedded-widget/icons/';

export const iconPath = (connectorType: string) => `${ICONS_PATH}${encodeURIComponent(connectorType)}.svg`;
