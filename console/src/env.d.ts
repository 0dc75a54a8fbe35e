// Stylesheets are bundled by Bun.build (a CSS import has no value).
declare module "*.css";
