export default function AdminPosts() {
  return <h1>AdminPosts</h1>;
}
