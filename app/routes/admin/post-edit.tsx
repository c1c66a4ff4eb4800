export default function AdminPostEdit() {
  return <h1>AdminPostEdit</h1>;
}
