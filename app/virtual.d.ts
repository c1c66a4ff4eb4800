// The server build React Router's Vite plugin generates; its shape is react-router's ServerBuild.
declare module "virtual:react-router/server-build";
