export default function AdminPostNew() {
  return <h1>AdminPostNew</h1>;
}
